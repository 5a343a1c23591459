import { InvalidArgumentError, type Command } from 'commander'
import { runStatusShown } from '../../../shared/contract/run-operations'
import { withProject } from '../contract'
import type { CliIO } from '../run'

interface ListOptions {
  archived?: boolean
  json?: boolean
}

function positiveId(value: string): number {
  const n = Number(value)
  if (!(Number.isInteger(n) && n > 0)) throw new InvalidArgumentError(`expected a positive integer id (got "${value}")`)
  return n
}

/** Skipped items the text list shows per run. */
const SKIPPED_SHOWN = 5

/** One line per run: id, instrument, judge, status, counts, and the archive mark (a CLI process executes no run). */
async function runLines(file: string, includeArchived: boolean) {
  return (await withProject(file, { mode: 'read' }, (project) => project.call('runs.list', { includeArchived }))).runs
}

export function registerRuns(program: Command, io: CliIO): void {
  const runs = program.command('runs').description('Judge runs: list them, archive a run or a judge (kept in the file, left out of reports), restore it')

  runs
    .command('list')
    .description('Every run with its status and counts (archived runs only with --archived)')
    .argument('<file>', 'the .assay project file')
    .option('--archived', 'include archived runs and runs of archived judges')
    .option('--json', 'print the runs as JSON')
    .action(async (file: string, opts: ListOptions) => {
      const lines = await runLines(file, opts.archived ?? false)
      if (opts.json) {
        const runs = lines.map((r) => {
          const shown = runStatusShown(r)
          return { ...r, interrupted: shown.status === 'interrupted', shown }
        })
        io.out(JSON.stringify({ runs }, null, 2))
        return
      }
      if (lines.length === 0) {
        io.out(opts.archived ? 'No runs.' : 'No runs (archived runs are listed with --archived).')
        return
      }
      const rows = lines.map((r) => [
        String(r.id),
        r.instrument,
        r.judge.name,
        runStatusShown(r).status,
        `${r.counts.total - r.counts.pending}/${r.counts.total}`,
        String(r.counts.ok),
        String(r.counts.failed),
        String(r.counts.unparseable),
        String(r.skipped),
        r.archived ? 'archived' : r.judgeArchived ? 'judge archived' : ''
      ])
      io.out(grid(['run', 'instrument', 'judge', 'status', 'done', 'ok', 'failed', 'unparseable', 'skipped', 'archived'], rows))
      // A status that is not the stored one says why (a killed run, a run with no answer).
      for (const [r, shown] of lines.map((r) => [r, runStatusShown(r)] as const)) if (shown.why) io.out(`run ${r.id} ${shown.status}: ${shown.why}`)
      // What each run left out and why (a leaking task, with who found the leak), the first few of each.
      for (const r of lines) {
        for (const s of r.skippedItems.slice(0, SKIPPED_SHOWN)) io.out(`run ${r.id} skipped ${s.externalId}: ${s.reason}`)
        if (r.skipped > SKIPPED_SHOWN) io.out(`run ${r.id} skipped ${r.skipped - SKIPPED_SHOWN} more (runs list --json lists ${r.skippedItems.length})`)
      }
    })

  const mark = (verb: 'archive' | 'restore', target: 'run' | 'judge') =>
    async (file: string, id: number) => {
      await withProject(file, { mode: 'write' }, async (p) => {
        if (target === 'run') await p.call(verb === 'archive' ? 'runs.archive' : 'runs.restore', { runId: id })
        else await p.call(verb === 'archive' ? 'judges.archive' : 'judges.restore', { judgeId: id })
      })
      io.out(`${verb === 'archive' ? 'Archived' : 'Restored'} ${target} ${id}${verb === 'archive' ? ' (kept in the file; left out of reports and lists)' : ''}`)
    }

  for (const verb of ['archive', 'restore'] as const) {
    runs
      .command(verb)
      .description(verb === 'archive' ? 'Archive a run, or with --judge every run of a judge: kept in the file, left out of reports and lists' : 'Restore an archived run, or with --judge an archived judge')
      .argument('<file>', 'the .assay project file')
      .argument('<id>', 'the run id (or the judge id with --judge)', positiveId)
      .option('--judge', 'the id is a judge configuration, not a run')
      .action(async (file: string, id: number, opts: { judge?: boolean }) => mark(verb, opts.judge ? 'judge' : 'run')(file, id))
  }

  runs
    .command('judges')
    .description('Judge configurations with their archive mark')
    .argument('<file>', 'the .assay project file')
    .option('--json', 'print the judges as JSON')
    .action(async (file: string, opts: { json?: boolean }) => {
      const { judges } = await withProject(file, { mode: 'read' }, (p) => p.call('judges.list', { includeArchived: true }))
      if (opts.json) return io.out(JSON.stringify({ judges }, null, 2))
      const rows = judges.map((j) => [String(j.id), j.name, j.provider, j.model, j.archived ? 'archived' : ''])
      io.out(rows.length ? grid(['judge', 'name', 'provider', 'model', 'archived'], rows) : 'No judges.')
    })
}

function grid(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd()
  return [line(head), ...rows.map(line)].join('\n')
}
