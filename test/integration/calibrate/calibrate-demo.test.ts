import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { failing, startFakeProviders, type FakeProviders, type Prompt } from '../../fakes'
import { KEYS } from '../runner/helpers'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { Project } from '../../../src/main/store/project'
import { logExposure } from '../../../src/main/store/exposures'
import { normalCriticalValue } from '../../../src/shared/stats'
import { demoWithScoreJudge, EXPERT, judgeOf, SETS } from './fixture'

// The whole recalibration loop on the bundled demo: a split, an expert's and a score judge's answers on the
// hypothesis sets (imported as answers made elsewhere), a pairwise judge run in both display orders through the real
// SDK against the loopback fake; every method fitted on dev and evaluated on test, and the fits read back in the report.
const tmp = tempDir('assay-calibrate-')
const path = tmp.file('demo.assay')
let fake: FakeProviders
const saved = { ...process.env }

let unlabelledSet: string

const json = (r: { code: number; stdout: string; stderr: string }) => {
  expect(r.stderr).toBe('')
  expect(r.code).toBe(0)
  return JSON.parse(r.stdout)
}

/** A pairwise judge whose verdict depends on the prompt, so the two display orders sometimes disagree. */
const pairJudge = (p: Prompt): string => {
  const verdict = ['A_better', 'B_better', 'A_much_better'][createHash('sha256').update(p.user).digest()[0]! % 3]
  return `\`\`\`json\n{"analysis":"compared","verdict":"${verdict}","fatal_flaws":[]}\n\`\`\``
}

beforeAll(async () => {
  unlabelledSet = await demoWithScoreJudge(path, tmp.file('match.jsonl'))
  expect((await runCli('split', path, '--test', '0.5', '--kind', 'proposal-pair', '--seed', 'calibrate')).code).toBe(0)

  fake = await startFakeProviders({ apiKeys: { openai: KEYS.openai }, responder: pairJudge })
  process.env.OPENAI_API_KEY = KEYS.openai
  const run = await runCli('judge', path, '--instrument', 'pairwise-preference', '--provider', 'openai', '--model', 'gpt-4.1-mini', '--base-url', fake.url('openai'), '--both-orders', '--seed', 'demo')
  expect(run.code).toBe(0)
}, 120_000)

afterAll(async () => {
  process.env = { ...saved }
  await fake?.close()
  tmp.cleanup()
})

describe('assay calibrate on the demo', () => {
  it('refuses to fit on test items and stores nothing', async () => {
    const r = await runCli('calibrate', path, '--instrument', 'hypothesis-match', '--source', 'score-judge', '--method', 'threshold', '--fit-split', 'test', '--eval-split', 'dev')
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/never fitted on test items/)
    const project = await Project.open(path)
    expect((project.db.prepare(`SELECT count(*) AS n FROM calibration_fits`).get() as { n: number }).n).toBe(0)
    // The storage refuses a test item too.
    const testItem = project.db.prepare(`SELECT id FROM items WHERE split = 'test' LIMIT 1`).get() as { id: number }
    const fit = project.db.prepare(`INSERT INTO calibration_fits (instrument_id, method, source, spec, parameters, n_fit_units) VALUES ('x', 'platt', 's', '{}', '{}', 0)`).run()
    expect(() => project.db.prepare(`INSERT INTO calibration_fit_items (fit_id, item_id) VALUES (?, ?)`).run(fit.lastInsertRowid, testItem.id)).toThrow(/cannot use test items/)
    project.db.prepare(`DELETE FROM calibration_fits`).run()
    project.close()
  })

  it('fits a threshold on dev that beats the judge’s own cut on test (exact McNemar beside it)', async () => {
    const out = json(await runCli('calibrate', path, '--instrument', 'hypothesis-match', '--source', 'score-judge', '--method', 'threshold', '--json'))
    const [fit] = out.fits
    expect(fit.parameters).toMatchObject({ kind: 'threshold', threshold: 4, metric: 'balanced_accuracy' })
    expect(fit.target_field).toBe('matched')
    expect(fit.n_fit_items).toBe(2)
    expect(fit.n_eval_units).toBe(15)
    // The judge inflates by one: its own match ≥ 3 is wrong wherever the expert says 2; the fitted cut is never wrong.
    expect(fit.decision.after_accuracy).toBe(1)
    expect(fit.decision.before_accuracy).toBeLessThan(1)
    expect(fit.decision.only_before).toBe(0)
    expect(fit.decision.mcnemar_p).toBeGreaterThan(0)
    expect(fit.decision.accuracy_difference.difference).toBeCloseTo(fit.decision.after_accuracy - fit.decision.before_accuracy, 12)
    expect(fit.decision.accuracy_difference.ci_high).toBeGreaterThanOrEqual(fit.decision.accuracy_difference.ci_low)
  })

  it('Platt scaling and isotonic regression report Brier, log loss, ECE and mean absolute difference before and after', async () => {
    const platt = json(await runCli('calibrate', path, '--instrument', 'hypothesis-match', '--source', 'score-judge', '--method', 'platt', '--json')).fits[0]
    expect(platt.probability.n).toBe(15)
    expect(platt.probability.after.brier).toBeLessThan(platt.probability.before.brier)
    expect(platt.probability.brier_difference.difference).toBeCloseTo(platt.probability.after.brier - platt.probability.before.brier, 12)
    expect(platt.probability.before_mapping).toMatch(/declared scale \[0, 5\]/)
    const iso = json(await runCli('calibrate', path, '--instrument', 'hypothesis-match', '--source', 'score-judge', '--method', 'isotonic', '--json')).fits[0]
    expect(iso.parameters.output).toBe('scale')
    expect(iso.scale.before_mad).toBeGreaterThan(iso.scale.after_mad)
  })

  it('aggregates the both-order run by the MT-Bench rule and by averaging, counting changed verdicts', async () => {
    const r = await runCli('calibrate', path, '--instrument', 'pairwise-preference', '--source', 'run:1', '--method', 'both-orders')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/MT-Bench conservative/)
    expect(r.stdout).toMatch(/averaged/)
    expect(r.stdout).toMatch(/verdicts changed: \d+ of the first order/)
  })

  it('few-shot: a new template version with labelled dev examples, run on test and compared with the original on the same items', async () => {
    const r = await runCli('calibrate', path, '--instrument', 'pairwise-preference', '--source', 'run:1', '--method', 'few-shot', '--shots', '2', '--json')
    expect(r.code, r.stderr).toBe(0)
    // The run is named before it starts, with how to resume it, and its progress follows.
    expect(r.stderr).toMatch(/^Run (\d+) asks the judge with pairwise-ranker-fewshot@1 on the test split; if interrupted, resume it with: assay judge .* --template pairwise-ranker-fewshot@1 --split test/m)
    expect(r.stderr).toMatch(/^ {2}(\d+) of \1 calls$/m)
    const [fit] = JSON.parse(r.stdout).fits
    expect(fit.parameters).toMatchObject({ kind: 'few-shot', template: 'pairwise-ranker-fewshot@1', base_template: 'pairwise-ranker@1', k: 2 })
    expect(fit.parameters.examples).toHaveLength(2)
    // Stratified by label: one pair won by each side, both from dev.
    expect(new Set(fit.parameters.examples.map((e: { label: string }) => e.label))).toEqual(new Set(['a', 'b']))
    const project = await Project.open(path)
    for (const e of fit.parameters.examples) {
      expect((project.db.prepare(`SELECT split FROM items WHERE external_id = ?`).get(e.item) as { split: string }).split).toBe('dev')
    }
    const newRun = project.db.prepare(`SELECT template_id, template_version FROM runs WHERE id = ?`).get(fit.parameters.run_id) as { template_id: string; template_version: number }
    expect(newRun).toEqual({ template_id: 'pairwise-ranker-fewshot', template_version: 1 })
    const askedSplits = project.db.prepare(`SELECT DISTINCT i.split FROM model_calls c JOIN items i ON i.id = c.item_id WHERE c.run_id = ?`).all(fit.parameters.run_id) as { split: string }[]
    expect(askedSplits).toEqual([{ split: 'test' }])
    const prompt = project.db.prepare(`SELECT user_text FROM templates WHERE template_id = 'pairwise-ranker-fewshot'`).get() as { user_text: string }
    expect(prompt.user_text).toContain('Example 2 of 2, answered by domain experts')
    expect(prompt.user_text).toContain('{{proposal_a}}')
    project.close()
    expect(fit.source).toBe(`run:${fit.parameters.run_id}`)
    expect(fit.decision.n).toBe(fit.n_eval_units)
    expect(fit.decision.both_correct + fit.decision.only_before + fit.decision.only_after + fit.decision.both_wrong).toBe(fit.decision.n)
    // The same command again resumes that run: no second template version, run or fit.
    const again = await runCli('calibrate', path, '--instrument', 'pairwise-preference', '--source', 'run:1', '--method', 'few-shot', '--shots', '2', '--json')
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain(`fit ${fit.fit_id} is already stored with the same judge, examples and seed: its run ${fit.parameters.run_id} was resumed, nothing made again`)
    expect(JSON.parse(again.stdout).fits[0]).toMatchObject({ fit_id: fit.fit_id, decision: fit.decision })
    const reopened = await Project.open(path)
    const count = (sql: string) => (reopened.db.prepare(sql).get() as { n: number }).n
    expect(count(`SELECT count(*) AS n FROM templates WHERE template_id = 'pairwise-ranker-fewshot'`)).toBe(1)
    expect(count(`SELECT count(*) AS n FROM calibration_fits WHERE method = 'few-shot'`)).toBe(1)
    expect(count(`SELECT count(*) AS n FROM runs WHERE template_id = 'pairwise-ranker-fewshot'`)).toBe(1)
    // The examples' labels are in a judge's prompt: each example logged once as seen, whatever split it moves to later.
    const logged = reopened.db
      .prepare(`SELECT i.external_id AS item, e.kind, e.detail FROM exposures e JOIN items i ON i.id = e.item_id WHERE e.detail LIKE 'few-shot example%' ORDER BY i.external_id`)
      .all() as Array<{ item: string; kind: string; detail: string }>
    expect(logged).toEqual(
      fit.parameters.examples
        .map((e: { item: string }) => ({ item: e.item, kind: 'prompt_revision', detail: `few-shot example in pairwise-ranker-fewshot@1 (fit ${fit.fit_id})` }))
        .sort((x: { item: string }, y: { item: string }) => x.item.localeCompare(y.item))
    )
    reopened.close()
  })

  it('few-shot whose run\u2019s calls fail warns and exits with failure, as judge does', async () => {
    fake.addFault(failing(400, { times: 1000, message: 'model refused' }))
    try {
      const r = await runCli('calibrate', path, '--instrument', 'pairwise-preference', '--source', 'run:1', '--method', 'few-shot', '--shots', '2', '--shot-seed', 'other', '--json')
      expect(r.code, r.stderr).toBe(1)
      expect(r.stderr).toMatch(/warning: \d+ calls failed; run the judge again to retry them/)
    } finally {
      // The faults go; the judge answers again for what follows.
      fake.setScript({ responder: pairJudge })
    }
  })

  it('shows each fit as a source beside the raw judge, on the eval split only, and warns of exposed eval items', async () => {
    const project = await Project.open(path)
    const exposed = project.db.prepare(`SELECT id FROM items WHERE kind = 'hypothesis-set' AND split = 'test' ORDER BY id LIMIT 1`).get() as { id: number }
    project.write((db) => logExposure(db, exposed.id, 'label_viewed', 'curator'))
    project.close()
    const report = json(await runCli('report', path, '--instrument', 'hypothesis-match', '--json'))
    const calibrated = report.sources.filter((s: { kind: string }) => s.kind === 'calibrated')
    expect(calibrated.map((s: { detail: { method: string } }) => s.detail.method).sort()).toEqual(['isotonic', 'platt', 'threshold'])
    for (const s of calibrated) expect(s.n_items).toBe(3)
    const matched = report.fields.find((f: { name: string }) => f.name === 'matched')
    const threshold = calibrated.find((s: { detail: { method: string } }) => s.detail.method === 'threshold')
    const row = matched.comparisons.find((c: { source: string }) => c.source === threshold.id)
    expect(row.accuracy).toBe(1)
    expect(row.n).toBe(15)
    expect(report.calibration).toHaveLength(3)
    for (const c of report.calibration) {
      expect(c.n_exposed_eval_items).toBe(1)
      expect(c.warnings.join(' ')).toMatch(/exposed/)
    }
    const pairwise = json(await runCli('report', path, '--instrument', 'pairwise-preference', '--json'))
    const rules = pairwise.calibration.filter((c: { method: string }) => c.method === 'both-orders').map((c: { parameters: { rule: string } }) => c.parameters.rule).sort()
    expect(rules).toEqual(['average', 'conservative'])
    expect(pairwise.calibration.some((c: { method: string }) => c.method === 'few-shot')).toBe(true)
    expect(pairwise.pairwise.rows.some((r: { source: string }) => r.source.startsWith('fit:'))).toBe(true)
  })

  it('corrects the judge-only share with PPI, PPI++ and Rogan–Gladen, equal to the formulas on the same units', async () => {
    const report = json(await runCli('report', path, '--instrument', 'hypothesis-match', '--json'))
    const row = report.estimates.rows.find((r: { source: string; field: string }) => r.source === 'model:score-judge' && r.field === 'matched')
    // The reference, computed here from the answers written above: Y the expert's matched (≥ 3), F the judge's on
    // the same units, U the judge's on the set the expert left unlabelled.
    const Y: number[] = [], F: number[] = [], U: number[] = []
    Object.keys(SETS).forEach((set, k) => {
      EXPERT[k]!.forEach((m) => {
        const f = judgeOf(m) >= 3 ? 1 : 0
        if (set === unlabelledSet) U.push(f)
        else {
          Y.push(m >= 3 ? 1 : 0)
          F.push(f)
        }
      })
    })
    const mean = (x: number[]) => x.reduce((s, v) => s + v, 0) / x.length
    const var0 = (x: number[]) => mean(x.map((v) => (v - mean(x)) ** 2))
    const n = Y.length, N = U.length
    const z = normalCriticalValue(0.95)
    const rect = Y.map((y, i) => y - F[i]!)
    const theta = mean(U) + mean(rect)
    const se = Math.sqrt(var0(U) / N + var0(rect) / n)
    expect([row.n_labelled, row.n_unlabelled]).toEqual([25, 5])
    expect(row.ppi.value).toBeCloseTo(theta, 12)
    expect(row.ppi.se).toBeCloseTo(se, 12)
    // The normal interval reaches below 0 here: a share's interval is cut at 0, the figure before the cut kept.
    expect(theta - z * se).toBeLessThan(0)
    expect(row.ppi.ci_low).toBe(0)
    expect(row.ppi.cut_to_range.ci_low).toBeCloseTo(theta - z * se, 12)
    expect(row.human_only.value).toBeCloseTo(mean(Y), 12)
    expect(row.judge_only.value).toBeCloseTo(mean([...F, ...U]), 12)
    // Rogan–Gladen: p̂ on the unlabelled set, sensitivity and specificity on the labelled units.
    const p = mean(U)
    const q1 = Y.filter((y, i) => y === 1 && F[i] === 1).length / Y.filter((y) => y === 1).length
    const q0 = Y.filter((y, i) => y === 0 && F[i] === 0).length / Y.filter((y) => y === 0).length
    const rg = Math.min(1, Math.max(0, (p + q0 - 1) / (q0 + q1 - 1)))
    expect(row.rogan_gladen.sensitivity).toBeCloseTo(q1, 12)
    expect(row.rogan_gladen.specificity).toBeCloseTo(q0, 12)
    expect(row.rogan_gladen.value).toBeCloseTo(rg, 12)
    expect(report.estimates.method).toMatch(/ppi_py/)
    // The self-contained HTML report carries both sections.
    const html = tmp.file('report.html')
    expect((await runCli('report', path, '--instrument', 'hypothesis-match', '--html', html)).code).toBe(0)
    const page = readFileSync(html, 'utf8')
    expect(page).toContain('Recalibrated judges')
    expect(page).toContain('Estimates corrected for judge error')
    expect(page).toContain('Rogan–Gladen')
    // The cut bound is marked, and what it was before the cut is said under the table, in HTML and in text alike.
    const before = `before the cut ${(theta).toFixed(3)} [${(theta - z * se).toFixed(3)}, ${(theta + z * se).toFixed(3)}]`
    expect(page).toContain(`PPI: cut to [0, 1], the range of the quantity; ${before}`)
    expect(page).toContain('‡')
    const text = (await runCli('report', path, '--instrument', 'hypothesis-match')).stdout
    expect(text).toContain(`PPI: cut to [0, 1], the range of the quantity; ${before}`)
    expect(text).toMatch(/0\.400 \[0\.000, 0\.857\] ‡/)
    // An estimate without a value ("—") gives its reason under the table, in text as in HTML.
    const undefinedLine = "score-judge against Human majority, mean of plausibility, PPI++: — the judge's labels do not vary, so the power-tuning parameter is undefined"
    expect(text).toContain(undefinedLine)
    expect(page).toContain(undefinedLine.replace(/'/g, '&#39;'))
  })

  it('takes --criterion by the name the report prints, and lists the criteria for one it does not know', async () => {
    const report = json(await runCli('report', path, '--instrument', 'hypothesis-match', '--json'))
    const criterion = report.sources.find((s: { id: string }) => s.id === report.criteria[0])
    const printed = await runCli('calibrate', path, '--instrument', 'hypothesis-match', '--source', 'score-judge', '--method', 'threshold', '--criterion', criterion.name, '--json')
    expect(printed.code).toBe(0)
    const byName = JSON.parse(printed.stdout)
    expect(byName.fits[0].criterion).toBe(criterion.id)
    // The same fit as the threshold fit above (the criterion by its id there, by its name here): shown, not stored twice.
    expect(byName.fits[0].fit_id).toBe(1)
    expect(printed.stderr).toBe('fit 1 is already stored with the same specification, fit items and parameters: not stored again\n')
    const project = await Project.open(path)
    expect((project.db.prepare(`SELECT count(*) AS n FROM calibration_fits WHERE method = 'threshold'`).get() as { n: number }).n).toBe(1)
    project.close()
    const wrong = await runCli('calibrate', path, '--instrument', 'hypothesis-match', '--source', 'score-judge', '--method', 'threshold', '--criterion', 'Nobody')
    expect(wrong.code).not.toBe(0)
    expect(wrong.stderr).toContain(`No criterion "Nobody"; criteria: ${criterion.id} (${criterion.name})`)
  })
})
