import type { Command } from 'commander'
import { AssayError } from '../../../shared/errors'
import { splitSchema, type Split } from '../../../shared/items/kinds'
import type { CalibrationRow } from '../../../shared/calibrate/schema'
import { calibrationLines, evaluatedOn, fittedOn, fitTarget } from '../../../shared/report/calibration-lines'
import type { EventPayload } from '../../../shared/contract/operations'
import { withProject, type OpenFor } from '../contract'
import { EXIT_FAILURE, ExitCode, type CliIO } from '../run'

const METHODS = ['both-orders', 'platt', 'isotonic', 'threshold', 'few-shot'] as const
const RULES = ['conservative', 'average'] as const
const METRICS = ['balanced_accuracy', 'accuracy', 'f1', 'youden'] as const

interface CalibrateFlags {
  instrument: string
  source: string
  method: string
  criterion?: string
  field?: string
  target?: string
  positive?: string
  rule?: string
  metric?: string
  fitSplit: string
  evalSplit: string
  seed?: string
  shots?: string
  shotSeed?: string
  json?: boolean
}

export function registerCalibrate(program: Command, io: CliIO): void {
  program
    .command('calibrate')
    .description('Recalibrate a judge from expert labels: fit on the dev split, store the fit, evaluate it on held-out test items')
    .argument('<file>', 'the .assay project file')
    .requiredOption('--instrument <id>', 'the instrument the judge answered')
    .requiredOption('--source <run-or-judge>', 'the judge: run:<id>, a run id, model:<name>, or a judge name (its latest run)')
    .requiredOption('--method <method>', `one of ${METHODS.join(', ')}`)
    .option('--criterion <id>', 'the labels to aim at, as the report names them (default: the first criterion giving the target field)')
    .option('--field <name>', "the judge's numeric score field (default: the instrument's first numeric field)")
    .option('--target <name>', 'the criterion field to aim at (default: a yes/no field for platt and threshold, the score field for isotonic)')
    .option('--positive <value>', 'the positive outcome of the target: a category, true/false, or >=k')
    .option('--rule <rule>', `both-orders only: ${RULES.join(' or ')} (default: store one fit for each)`)
    .option('--metric <metric>', `threshold only: what the threshold maximises on dev, one of ${METRICS.join(', ')}`, 'balanced_accuracy')
    .option('--fit-split <split>', 'the split the fit learns from (never test)', 'dev')
    .option('--eval-split <split>', 'the split the fit is evaluated on', 'test')
    .option('--shots <k>', 'few-shot only: labelled dev examples put in the prompt, chosen stratified by label (default 4)')
    .option('--shot-seed <s>', "few-shot only: seed of the choice of examples (default: the project's seed)")
    .option('--seed <n>', 'bootstrap seed of the paired intervals')
    .option('--json', 'print the stored fits with their evaluation as JSON')
    .action(async (file: string, opts: CalibrateFlags) => {
      const method = choice(opts.method, METHODS, '--method')
      const rule = opts.rule === undefined ? undefined : choice(opts.rule, RULES, '--rule')
      const metric = choice(opts.metric ?? 'balanced_accuracy', METRICS, '--metric')
      const seed = opts.seed === undefined ? undefined : Number(opts.seed)
      if (seed !== undefined && !(Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff)) {
        throw new AssayError('invalid_input', `--seed must be an integer in [0, 2^32 − 1] (got "${opts.seed}")`)
      }
      const shots = opts.shots === undefined ? undefined : Number(opts.shots)
      if (shots !== undefined && !(Number.isInteger(shots) && shots >= 1 && shots <= 64)) throw new AssayError('invalid_input', `--shots must be an integer from 1 to 64 (got "${opts.shots}")`)
      const common = {
        instrument: opts.instrument,
        source: opts.source,
        fitSplit: split(opts.fitSplit, '--fit-split'),
        evalSplit: split(opts.evalSplit, '--eval-split'),
        ...(opts.criterion !== undefined ? { criterion: opts.criterion } : {}),
        ...(opts.target !== undefined ? { target: opts.target } : {}),
        ...(seed !== undefined ? { seed } : {})
      }
      // Calls of a few-shot run that failed: the command then fails, as `assay judge` does.
      let failedCalls = 0
      const onEvent: OpenFor['onEvent'] = (event, payload) => {
        if (event === 'run.prepared') {
          const p = payload as EventPayload<'run.prepared'>
          io.err(`Run ${p.runId} asks the judge with ${p.template} on the ${p.split} split; if interrupted, resume it with: assay judge ${file} --instrument ${opts.instrument} --template ${p.template} --split ${p.split} (and the judge's options)`)
        } else if (event === 'run.progress') {
          const p = payload as EventPayload<'run.progress'>
          io.err(`  ${p.done} of ${p.total} calls`)
        }
      }
      const fits = await withProject(file, { mode: 'write', onEvent }, async (project) => {
        if (method !== 'few-shot') {
          const input = {
            ...common,
            method,
            metric,
            ...(opts.field !== undefined ? { field: opts.field } : {}),
            ...(opts.positive !== undefined ? { positive: opts.positive } : {}),
            ...(rule !== undefined ? { rule } : {})
          }
          const result = await project.call('report.calibrate', input)
          for (const id of result.already_stored) io.err(`fit ${id} is already stored with the same specification, fit items and parameters: not stored again`)
          return result.fits
        }
        const input = { ...common, ...(shots !== undefined ? { shots } : {}), ...(opts.shotSeed !== undefined ? { shotSeed: opts.shotSeed } : {}) }
        const result = await project.call('report.calibrateFewShot', input)
        for (const id of result.already_stored) io.err(`fit ${id} is already stored with the same judge, examples and seed: its run ${result.run.runId} was resumed, nothing made again`)
        if (result.run.counts.failed > 0) {
          io.err(`warning: ${result.run.counts.failed} calls failed; run the judge again to retry them, then read the report`)
          failedCalls = result.run.counts.failed
        }
        return result.fits
      })
      if (opts.json) io.out(JSON.stringify({ fits }, null, 2))
      else {
        for (const fit of fits) printFit(fit, io)
        io.out('The fits appear as sources in `assay report` beside the raw judge, evaluated on the eval split only.')
      }
      // As `assay judge` does: calls that failed make the command fail, though what was stored stays.
      if (failedCalls > 0) throw new ExitCode(EXIT_FAILURE)
    })
}

function choice<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T
  throw new AssayError('invalid_input', `${flag} must be one of ${allowed.join(', ')} (got "${value}")`)
}

function split(value: string, flag: string): Split {
  const parsed = splitSchema.safeParse(value)
  if (!parsed.success) throw new AssayError('invalid_input', `${flag} must be one of dev, test, none (got "${value}")`)
  return parsed.data
}

function printFit(fit: CalibrationRow, io: CliIO): void {
  io.out(`fit ${fit.fit_id} (${fit.source}): ${fit.raw_source} · ${fit.label}, aimed at ${fitTarget(fit)} of ${fit.criterion}`)
  io.out(`  fitted on ${fit.method === 'both-orders' ? fittedOn(fit) : `${fit.fit_split}: ${fit.n_fit_items} items, ${fit.n_fit_units} units`}; evaluated on ${evaluatedOn(fit)}`)
  // The same lines as the report's recalibration section (text, HTML and screen).
  for (const line of calibrationLines(fit)) io.out(`  ${line}`)
  for (const [key, reason] of Object.entries(fit.reasons)) io.out(`  ${key}: ${reason}`)
  for (const w of fit.warnings) io.out(`  warning: ${w}`)
}
