import { calibrationSection, chooseFewShotExamples, fewShotUserText, resolveInput, type CalibrationRow, type FitSpec } from '../../shared/calibrate'
import { AssayError } from '../../shared/errors'
import { getInstrument } from '../../shared/instruments'
import { itemOfUnitKey } from '../../shared/report/resolve'
import { DEFAULT_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_SEED } from '../../shared/stats'
import { gatherReportInput } from '../report/gather'
import { answerText } from '../export/answer-text'
import { readTrainingExamples } from '../export/training-rows'
import { addUserTemplate, parseRunSpec, prepareRun, resolveTemplate, runRegistry, type RunEnvironment, type RunResult } from '../runner'
import type { RunProgress } from '../runner'
import type { Project } from '../store/project'
import { insertFit, listFits } from '../store/calibration-fits'
import { logExposure } from '../store/exposures'
import { defaultCriterion, resolveCriterionId, fieldsFor, resolveSourceId, type CalibrateOptions } from './service'
import { getRunRow } from '../store/model-calls'

export interface FewShotOptions extends CalibrateOptions {
  /** Examples shown (default 4). */
  shots?: number | undefined
  /** Seed of the choice of examples (default: the project's seed). */
  shotSeed?: string | undefined
  env: RunEnvironment
  onProgress?: ((p: RunProgress) => void) | undefined
  /** Told the new run's id before it starts, so an interrupted run can be resumed with `assay judge`. */
  onRunPrepared?: ((runId: number, template: string) => void) | undefined
}

export interface FewShotResult {
  fits: CalibrationRow[]
  run: RunResult
  /** The fit already stored with the same specification and examples: its run resumed, nothing made again. */
  already_stored: number[]
}

/**
 * Few-shot recalibration: k labelled dev examples, chosen stratified by label (seeded and recorded), written into a
 * new template version of the judge run's prompt; the same judge is then run on the eval split with it (a normal run:
 * every call recorded, cached, resumable) and compared with the original template on the same items.
 */
export async function calibrateFewShot(project: Project, options: FewShotOptions): Promise<FewShotResult> {
  const db = project.db
  const fitSplit = options.fitSplit ?? 'dev'
  const evalSplit = options.evalSplit ?? 'test'
  if (fitSplit === 'test') {
    throw new AssayError('invalid_input', 'Few-shot examples are never taken from test items: choose --fit-split dev (or none)', [{ field: 'fit_split', message: 'test is held out for evaluation' }])
  }
  if (fitSplit === evalSplit) throw new AssayError('invalid_input', `The examples and the evaluation both come from "${fitSplit}"`, [{ field: 'eval_split', message: 'must differ from the fit split' }])
  const input = gatherReportInput(db, { instrument: options.instrument })
  const source = resolveSourceId(input, options.source)
  const runMatch = /^run:(\d+)$/.exec(source)
  if (!runMatch) throw new AssayError('invalid_input', `few-shot asks the judge again, so --source must be a judge run (not ${source})`, [{ field: '--source', message: 'not a run' }])
  const run = getRunRow(db, Number(runMatch[1]))
  if (!run) throw new AssayError('not_found', `No run ${source}`)
  const { target } = fieldsFor(input, { ...options, method: options.instrument === 'pairwise-preference' ? 'both-orders' : 'threshold' })
  const targetSpec = options.targetField ? { field: options.targetField, positive: null } : target
  const resolved = resolveInput(input)
  const criterion = options.criterion !== undefined ? resolveCriterionId(resolved, options.criterion) : defaultCriterion(resolved, targetSpec.field)
  refuseUnlabelledEvalSplit(resolved, criterion, targetSpec.field, evalSplit)

  const instrument = getInstrument(options.instrument as never)
  const { template: base } = resolveTemplate(db, run.template_id, run.template_version)
  const baseRef = `${base.entry.id}@${base.entry.version}`
  const k = options.shots ?? 4
  const seed = options.shotSeed ?? project.seed
  const training = readTrainingExamples(project, { instrument: instrument.id, split: fitSplit, template: { id: base.entry.id, version: base.entry.version } })
  const candidates = training.examples.map((e) => ({ ...e, id: e.item, label: typeof e.judgement.verdict === 'string' ? e.judgement.verdict.slice(0, 1) : 'all' }))
  if (candidates.length === 0) {
    // An example is a whole answer to the prompt: a label that scores one field (a reference same_study) is not one.
    throw new AssayError(
      'bad_data',
      `No ${fitSplit} item of ${instrument.id} has a whole answer to show as an example (an adjudication, an annotator's answer or their majority, ` +
        "or a proposal pair's reference verdict); few-shot needs answers to the whole form, while platt, isotonic and threshold fit a score to a label of one field",
      [{ field: 'fit_split', message: 'no whole answers' }]
    )
  }
  const chosen = chooseFewShotExamples(candidates, k, seed)
  if (chosen.some((e) => e.split === 'test')) throw new AssayError('internal', 'a test item was chosen as an example')

  const spec: FitSpec = {
    method: 'few-shot',
    instrument: instrument.id,
    source,
    criterion,
    score_field: targetSpec.field,
    target: targetSpec,
    fit_split: fitSplit,
    eval_split: evalSplit
  }
  const examples = chosen.map((e) => ({ item: e.item, label: e.label }))
  // The same command again (same judge, examples and seed): its run is resumed, no template, run or fit is made twice.
  const same = listFits(db, instrument.id).find(
    (f) =>
      f.parameters.kind === 'few-shot' &&
      JSON.stringify(f.spec) === JSON.stringify(spec) &&
      f.parameters.base_template === baseRef &&
      f.parameters.k === k &&
      f.parameters.seed === seed &&
      JSON.stringify(f.parameters.examples) === JSON.stringify(examples)
  )
  if (same && same.parameters.kind === 'few-shot') {
    options.onRunPrepared?.(same.parameters.run_id, same.parameters.template)
    const result = await runRegistry.run(project, same.parameters.run_id, options.env, options.onProgress)
    return { fits: evaluated(project, options, same.id), run: result, already_stored: [same.id] }
  }

  // The base prompt with its placeholders written the way a template of one's own names them.
  const asUserTokens = (text: string) => base.entry.placeholders.reduce((t, p) => t.split(p.token).join(`{{${p.name}}}`), text)
  const names = base.entry.placeholders.map((p) => p.name)
  const user = fewShotUserText(
    asUserTokens(base.parts.user ?? ''),
    names,
    chosen.map((e) => ({ values: e.values, answer: answerText(instrument, base.entry.answerFormat ?? null, e.judgement, e.display) }))
  )
  const created = project.write((db) =>
    addUserTemplate(db, {
      id: `${base.entry.id}-fewshot`,
      instrument: instrument.id,
      ...(base.parts.system !== undefined ? { system: asUserTokens(base.parts.system) } : {}),
      user,
      answerFormat: base.entry.answerFormat ?? 'json',
      note: `${baseRef} with ${chosen.length} expert-labelled ${fitSplit} examples (seed ${seed}): ${chosen.map((e) => e.item).join(', ')}`
    })
  )
  const templateRef = `${created.id}@${created.version}`
  const prepared = prepareRun(
    project,
    parseRunSpec({ instrument: instrument.id, judgeId: run.judge_id, template: templateRef, split: evalSplit, seed: run.seed, ...(run.both_orders ? { bothOrders: true } : {}), trials: run.trials })
  )
  const exampleItems = [...new Set(chosen.map((e) => e.itemId))]
  const fitId = project.write((db) => {
    const id = insertFit(db, spec, { kind: 'few-shot', template: templateRef, base_template: baseRef, k, seed, examples, run_id: prepared.runId }, exampleItems, chosen.length)
    // Their labels are now in a judge's prompt: logged, so an item a later split moves into test is known as seen.
    for (const itemId of exampleItems) logExposure(db, itemId, 'prompt_revision', 'calibrate', `few-shot example in ${templateRef} (fit ${id})`)
    return id
  })
  options.onRunPrepared?.(prepared.runId, templateRef)
  const result = await runRegistry.run(project, prepared.runId, options.env, options.onProgress)
  return { fits: evaluated(project, options, fitId), run: result, already_stored: [] }
}

/** One stored fit, evaluated on what the project holds now. */
function evaluated(project: Project, options: FewShotOptions, fitId: number): CalibrationRow[] {
  const after = gatherReportInput(project.db, { instrument: options.instrument })
  const stored = listFits(project.db, options.instrument).filter((f) => f.id === fitId)
  return calibrationSection({ ...after, fits: stored }, stored, {
    level: options.level ?? 0.95,
    resamples: options.resamples ?? DEFAULT_BOOTSTRAP_RESAMPLES,
    seed: options.seed ?? DEFAULT_BOOTSTRAP_SEED,
    eceBins: 10
  })
}

/** Before any template or run is made: a few-shot fit needs eval units the criterion labels, or it has nothing to be evaluated on. */
function refuseUnlabelledEvalSplit(resolved: ReturnType<typeof resolveInput>, criterion: string, field: string, evalSplit: string): void {
  const labels = resolved.sources.get(criterion)?.values.get(field)
  for (const key of labels?.keys() ?? []) if (resolved.splitOf.get(itemOfUnitKey(key)) === evalSplit) return
  throw new AssayError('bad_data', `Nothing to evaluate: no ${evalSplit} item has a "${field}" from ${criterion}; no template or run was made, nothing was stored`, [
    { field: 'eval_split', message: 'no labelled eval units' }
  ])
}
