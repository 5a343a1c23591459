import { resolve } from 'node:path'
import type { Command } from 'commander'
import { AssayError } from '../../../shared/errors'
import { splitSchema, type Split } from '../../../shared/items/kinds'
import { checkOutputPath, writeOutputFile } from '../../files/output-file'
import { withProject, type CommandProject } from '../contract'
import type { CliIO } from '../run'

interface ReportOptions {
  instrument?: string
  split?: string
  json?: boolean
  html?: string
  seed?: string
  resamples?: string
  force?: boolean
  source?: string[]
  panel?: string
  archived?: boolean
}

export function registerReport(program: Command, io: CliIO): void {
  program
    .command('report')
    .description('Audit report of one instrument: judges against people and reference labels, with denominators, baselines and intervals')
    .argument('<file>', 'the .assay project file')
    .option('--instrument <id>', 'the instrument to report on (required when several have answers)')
    .option('--split <split>', 'restrict to one split: dev, test or none')
    .option('--json', 'print the report JSON (see docs/report-json.md)')
    .option('--html <path>', 'write a self-contained HTML report (opens offline)')
    .option('--force', 'replace an existing file at --html (never an SQLite file or the project)')
    .option('--seed <n>', 'bootstrap seed (an integer in [0, 2^32 − 1])')
    .option('--resamples <n>', 'bootstrap resamples (at least 2000)')
    .option('--panel <judges>', 'hypothesis-match: the cross-company panel, comma-separated judge names (or run:<id>, model:<name>); default: the newest judge of each company, at most four companies')
    .option('--source <id>', 'keep only this judge (repeatable; a source id such as run:3 or model:<name>); people and criteria always stay', (v: string, all: string[] = []) => [...all, v])
    .option('--archived', 'also report archived runs and runs of archived judges')
    .action(async (file: string, opts: ReportOptions) => {
      // The report's renderers load only when a report is made.
      const { MAX_BOOTSTRAP_RESAMPLES, MIN_BOOTSTRAP_RESAMPLES, renderReportHtml, renderReportText } = await import('../../../shared/report')
      const split = parseSplit(opts.split)
      const seed = opts.seed === undefined ? undefined : integer(opts.seed, '--seed', 0, 0xffffffff)
      const resamples = opts.resamples === undefined ? undefined : integer(opts.resamples, '--resamples', MIN_BOOTSTRAP_RESAMPLES, MAX_BOOTSTRAP_RESAMPLES)
      const projectPath = resolve(file)
      // Writing the HTML file is the command line's own: the operation gives the report, the command writes it.
      const guard = { force: opts.force ?? false, protect: [projectPath] }
      // Refused before the report is computed, so a wrong path costs nothing.
      if (opts.html) checkOutputPath(opts.html, guard)
      const panel = (opts.panel ?? '').split(',').map((s) => s.trim()).filter(Boolean)
      const how = { mode: 'read' as const, onNotWritable: (path: string) => io.err(`note: ${path} is read-only; opened for reading`) }
      const report = await withProject(projectPath, how, async (project) =>
        project.call('report.build', {
          instrument: opts.instrument ?? (await onlyInstrument(project)),
          ...(split ? { split } : {}),
          ...(opts.source ? { sources: opts.source } : {}),
          ...(panel.length ? { panel } : {}),
          ...(opts.archived ? { includeArchived: true } : {}),
          ...(seed !== undefined ? { seed } : {}),
          ...(resamples !== undefined ? { resamples } : {})
        })
      )
      if (opts.html) {
        const path = writeOutputFile(opts.html, renderReportHtml(report), guard)
        if (!opts.json) io.out(`Wrote ${path}`)
      }
      // The text report is what the command prints when it is asked for neither JSON nor a file.
      if (opts.json) io.out(JSON.stringify(report, null, 2))
      else if (!opts.html) io.out(renderReportText(report))
    })
}

function parseSplit(value: string | undefined): Split | undefined {
  if (value === undefined) return undefined
  const parsed = splitSchema.safeParse(value)
  if (!parsed.success) throw new AssayError('invalid_input', `--split must be one of dev, test, none (got "${value}")`)
  return parsed.data
}

function integer(value: string, flag: string, min: number, max: number): number {
  const n = Number(value)
  if (!(Number.isInteger(n) && n >= min && n <= max)) throw new AssayError('invalid_input', `${flag} must be an integer from ${min} to ${max} (got "${value}")`)
  return n
}

async function onlyInstrument(project: CommandProject): Promise<string> {
  const { instruments } = await project.call('report.instruments', {})
  if (instruments.length === 1) return instruments[0]!.id
  if (instruments.length === 0) throw new AssayError('invalid_input', 'Nothing to report: no instrument has answers, judge calls or labelled items in this project')
  throw new AssayError('invalid_input', `Choose an instrument with --instrument: ${instruments.map((i) => i.id).join(', ')}`)
}
