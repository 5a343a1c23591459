import { copyFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { calibrate } from '../../../src/main/calibrate/service'
import { projectReport } from '../../../src/main/report'
import { insertItems } from '../../../src/main/store/items'
import { Project } from '../../../src/main/store/project'
import { AssayError } from '../../../src/shared/errors'
import { fmtPercent, renderReportHtml, renderReportText, reportPlots, reportSchema, type Report, type ReportComparison, type ReportPairwiseRow } from '../../../src/shared/report'
import { tempDir } from '../../support/tmp'
import { num, recommended, recommendedAgreement } from './card-expectations'
import { addCalls, addPairs, addRun, annotate, demoWithCheckedProbes, verdictFor, type CallSpec, type PairSpec } from './fixtures'

// Small random projects (seeded, so every failure reproduces) of every shape the report meets: pairwise runs in one
// or both display orders, trials, failed, unreadable and pending calls, runs that never answered, imported model
// answers, zero to four annotators with ties and abstentions, reference labels on some pairs, dev/test splits, probes,
// flaw audits, and recalibrations (both orders; Platt and threshold on the preprint check's probability). Each report
// is checked against its schema and against what it says of itself: a card's figures are its sections' figures, and
// every count adds up to its stated denominator (cards-cite-sections.test.ts holds the golden reports to the same).

const tmp = tempDir('assay-random-projects-')
afterAll(() => tmp.cleanup())

// ASSAY_FUZZ_PROJECTS=400 runs more of them (seeds from 1000 up), to look for new cases.
const SEEDS = Array.from({ length: Number(process.env.ASSAY_FUZZ_PROJECTS ?? 40) }, (_, i) => 1000 + i)
const MIN_RESAMPLES = 2000

// ---------------------------------------------------------------------------------------------------------------
// Seeded randomness

interface Rng {
  next(): number
  int(lo: number, hi: number): number
  chance(p: number): boolean
  pick<T>(list: readonly T[]): T
}

function rngOf(seed: number): Rng {
  let state = seed >>> 0
  const next = () => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: (list) => list[Math.floor(next() * list.length)] as (typeof list)[number]
  }
}

type Side = 'a' | 'b'
const flip = (s: Side): Side => (s === 'a' ? 'b' : 'a')
type Status = 'ok' | 'failed' | 'unparseable' | 'pending'

/** A call's status: mostly answered, else one of the others (or a fixed one, for runs that never answered). */
function statusOf(r: Rng, mode: RunMode): Status {
  if (mode === 'all-failed') return 'failed'
  if (mode === 'all-pending') return 'pending'
  if (mode === 'failed-or-pending') return r.chance(0.5) ? 'failed' : 'pending'
  const x = r.next()
  return x < 0.72 ? 'ok' : x < 0.82 ? 'failed' : x < 0.91 ? 'unparseable' : 'pending'
}
type RunMode = 'normal' | 'all-failed' | 'all-pending' | 'failed-or-pending'

// ---------------------------------------------------------------------------------------------------------------
// Project builders

interface Built {
  instrument: string
  /** What the project was made of, said in a failure's message. */
  shape: string[]
  /** Adds items no source of the first report was asked about: none of its baselines may move. */
  addUnrelated?: (project: Project) => void
  /** The runs' calls as written, with each pair's reference label: the report's counts recounted from them. */
  written?: Written
}

interface Written {
  /** Reference side of each labelled item (label:citations). */
  labels: Map<number, Side>
  runs: Map<number, CallSpec[]>
}

/** Random pairwise judgements over pairs, with their truth side; returns the sources added. */
function pairwiseSources(project: Project, r: Rng, pairs: ReadonlyArray<{ item: number; truth: Side; split: string }>, shape: string[]): Map<number, CallSpec[]> {
  const written = new Map<number, CallSpec[]>()
  const runs = r.int(0, 3)
  for (let k = 0; k < runs; k++) {
    const bothOrders = r.chance(0.55)
    const trials = r.chance(0.25) ? 2 : 1
    const mode: RunMode = r.chance(0.12) ? r.pick(['all-failed', 'all-pending', 'failed-or-pending'] as const) : 'normal'
    const skill = 0.4 + 0.5 * r.next()
    const firstBias = r.chance(0.3) ? 0.6 : 0
    const flaws = r.chance(0.3)
    const abstains = r.chance(0.15)
    const run = addRun(project, { instrument: 'pairwise-preference', judge: `judge-${k}`, bothOrders, trials })
    shape.push(`run:${run} (${bothOrders ? 'both orders' : 'one order'}, ${trials} trial(s), ${mode})`)
    const calls: CallSpec[] = []
    for (const p of pairs) {
      if (r.chance(0.1)) continue
      for (const order of bothOrders ? [0, 1] : [0]) {
        const swapped = bothOrders ? order === 1 : r.chance(0.5)
        for (let trial = 0; trial < trials; trial++) {
          const status = statusOf(r, mode)
          if (status !== 'ok') {
            calls.push({ item: p.item, order, trial, swapped, status })
            continue
          }
          if (abstains && r.chance(0.15)) {
            calls.push({ item: p.item, order, trial, swapped, judgement: { verdict: 'abstain', abstain_reason: 'r' } })
            continue
          }
          const shownFirst: Side = swapped ? 'b' : 'a'
          const side = r.chance(firstBias) ? shownFirst : r.chance(skill) ? p.truth : flip(p.truth)
          const judgement: Record<string, unknown> = { verdict: verdictFor(side, r.chance(0.3) ? 'much_better' : 'better') }
          if (flaws) judgement.fatal_flaws = r.chance(0.3) ? [{ proposal: flip(side), description: 'flaw' }] : []
          calls.push({ item: p.item, order, trial, swapped, judgement })
        }
      }
    }
    addCalls(project, run, calls)
    written.set(run, calls)
  }
  if (r.chance(0.35)) {
    const skill = 0.5 + 0.4 * r.next()
    annotate(
      project,
      'pairwise-preference',
      pairs.filter(() => r.chance(0.8)).map((p) => ({ item: p.item, judgement: r.chance(0.08) ? { verdict: 'abstain', abstain_reason: 'r' } : { verdict: verdictFor(r.chance(skill) ? p.truth : flip(p.truth)) } })),
      { model: 'imported' }
    )
    shape.push('model:imported')
  }
  const annotators = r.int(0, 4)
  for (let k = 0; k < annotators; k++) {
    const skill = 0.55 + 0.4 * r.next()
    annotate(
      project,
      'pairwise-preference',
      pairs
        .filter(() => r.chance(0.85))
        .map((p) => ({
          item: p.item,
          swapped: r.chance(0.5),
          judgement: r.chance(0.1) ? { verdict: 'abstain', abstain_reason: 'r' } : { verdict: verdictFor(r.chance(skill) ? p.truth : flip(p.truth)) }
        })),
      { human: `Person ${k}` }
    )
  }
  shape.push(`${annotators} annotator(s)`)
  if (r.chance(0.25)) {
    annotate(project, 'pairwise-preference', pairs.filter(() => r.chance(0.6)).map((p) => ({ item: p.item, judgement: { verdict: verdictFor(r.chance(0.9) ? p.truth : flip(p.truth)) } })), { reference: 'expert' })
    shape.push('reference:expert')
  }
  if (annotators > 1 && r.chance(0.25)) {
    const adjudicated = pairs.filter(() => r.chance(0.3))
    project.write(() => {
      const stmt = project.db.prepare(`INSERT INTO adjudications (id, item_id, instrument_id, judgement, reason, curator) VALUES (?, ?, 'pairwise-preference', ?, 'split', 'curator')`)
      adjudicated.forEach((p, k) => stmt.run(`adj-${k}`, p.item, JSON.stringify({ verdict: verdictFor(p.truth) })))
    })
    shape.push(`${adjudicated.length} adjudication(s)`)
  }
  if (annotators > 0 && r.chance(0.3)) {
    // People's flaw audits: a fatal flaw on one side (sometimes both) of some pairs.
    const audited = pairs.filter(() => r.chance(0.5))
    annotate(
      project,
      'flaw-audit',
      audited.map((p) => ({
        item: p.item,
        judgement: {
          flaws: (r.chance(0.2) ? (['a', 'b'] as const) : [flip(p.truth)]).map((side) => ({ side, type: 'unsound_method', severity: 'fatal', evidence: 'Proposal', note: '' }))
        }
      })),
      { human: 'Person 0' }
    )
    shape.push(`flaw audits on ${audited.length} pairs`)
  }
  return written
}

function pairwiseProject(project: Project, r: Rng): Built {
  const shape: string[] = []
  // Mostly small; some at the report's minimum of items or above, where cards show the bootstrap interval.
  const n = r.chance(0.15) ? r.int(30, 36) : r.int(5, 14)
  const withOrigins = r.chance(0.5)
  const sets = r.chance(0.3) ? ['pairs', 'other'] : ['pairs']
  const splitOf = r.chance(0.6) ? () => r.pick(['dev', 'test'] as const) : () => 'none' as const
  const labelled = r.chance(0.85) ? 0.5 + 0.5 * r.next() : 0
  const specs: Array<PairSpec & { truth: Side }> = Array.from({ length: n }, (_, i) => {
    const truth: Side = r.chance(0.5) ? 'a' : 'b'
    const humanFirst = r.chance(0.5)
    return {
      id: `p${i}`,
      truth,
      label: r.chance(labelled) ? verdictFor(truth, r.chance(0.3) ? 'much_better' : 'better') : null,
      labelSource: 'citations',
      set: r.pick(sets),
      split: splitOf(),
      ...(withOrigins ? { origins: humanFirst ? (['human', 'ai'] as ['human', 'ai']) : (['ai', 'human'] as ['ai', 'human']), generators: humanFirst ? [null, r.pick(['sys-x', 'sys-y'])] : [r.pick(['sys-x', 'sys-y']), null] } : {})
    } as PairSpec & { truth: Side }
  })
  const ids = addPairs(project, specs)
  shape.push(`${n} pairs (${specs.filter((p) => p.label).length} labelled; ${withOrigins ? 'human vs AI' : 'no origins'}; sets ${sets.join('/')}; splits ${[...new Set(specs.map((p) => p.split))].join('/')})`)
  const pairs = specs.map((p) => ({ item: ids.get(p.id) as number, truth: p.truth, split: p.split ?? 'none' }))
  const runs = pairwiseSources(project, r, pairs, shape)
  const labels = new Map(specs.filter((p) => p.label).map((p) => [ids.get(p.id) as number, p.label?.charAt(0) as Side]))
  // A both-orders recalibration of a run asked in both orders, where the splits allow one.
  if (r.chance(0.5)) {
    const runs = project.db.prepare(`SELECT id FROM runs WHERE both_orders = 1 ORDER BY id`).all() as Array<{ id: number }>
    for (const run of runs.slice(0, 1)) {
      try {
        const { fits } = calibrate(project, { instrument: 'pairwise-preference', source: `run:${run.id}`, method: 'both-orders', resamples: MIN_RESAMPLES })
        shape.push(`both-orders fits of run:${run.id} (${fits.length})`)
      } catch (e) {
        if (!(e instanceof AssayError)) throw e
        shape.push(`both-orders fit of run:${run.id} refused`)
      }
    }
  }
  return {
    instrument: 'pairwise-preference',
    shape,
    written: { labels, runs },
    addUnrelated: (p) => {
      // Another set of labelled pairs (human against human, as probes are), answered by a new run only.
      const extra = addPairs(
        p,
        Array.from({ length: 6 }, (_, i) => ({ id: `extra${i}`, set: 'extra', label: verdictFor(i % 3 === 0 ? 'a' : 'b'), labelSource: 'citations', origins: ['human', 'human'] as ['human', 'human'] }))
      )
      const run = addRun(p, { instrument: 'pairwise-preference', judge: 'newcomer' })
      addCalls(p, run, [...extra.values()].map((item) => ({ item, judgement: { verdict: verdictFor('b') } })))
    }
  }
}

/** The demo with three verified formula-error probes and one rejected, made once and copied for each project. */
let probeTemplate: string | null = null

async function probeProject(path: string, r: Rng): Promise<{ project: Project; built: Built }> {
  copyFileSync(probeTemplate as string, path)
  const project = await Project.open(path)
  const shape = ['the demo with 4 formula-error probes (3 verified)']
  const rows = project.db.prepare(`SELECT id, split, payload FROM items WHERE kind = 'proposal-pair' ORDER BY id`).all() as Array<{ id: number; split: string; payload: string }>
  const pairs = rows.map((row) => {
    const label = (JSON.parse(row.payload) as { label?: string }).label
    return { item: row.id, truth: (label?.charAt(0) === 'b' ? 'b' : 'a') as Side, split: row.split }
  })
  pairwiseSources(project, r, pairs, shape)
  return { project, built: { instrument: 'pairwise-preference', shape } }
}

function preprintProject(project: Project, r: Rng): Built {
  const shape: string[] = []
  const n = r.int(8, 18)
  const truth = Array.from({ length: n }, () => r.chance(0.5))
  const labelled = r.chance(0.8)
  const ids = project.write((db) =>
    insertItems(
      db,
      truth.map((same, i) => ({
        kind: 'preprint-pair' as const,
        externalId: `pp-${i}`,
        set: 'preprints',
        split: i % 2 === 0 ? ('dev' as const) : ('test' as const),
        payload: { paper: { title: `Paper ${i}`, abstract: 'A.' }, preprint: { title: `Preprint ${i}`, abstract: 'B.' }, ...(labelled && r.chance(0.85) ? { same_study: same } : {}) }
      }))
    )
  )
  shape.push(`${n} preprint pairs (${labelled ? 'labelled' : 'no labels'})`)
  const answer = (same: boolean, sharp: number) => {
    const p = Math.min(0.99, Math.max(0.01, (same ? 0.5 + sharp : 0.5 - sharp) + 0.3 * (r.next() - 0.5)))
    return { same_study: p >= 0.5, confidence: p >= 0.5 ? p : 1 - p, reason: 'r' }
  }
  const runs = r.int(0, 2)
  const runIds: number[] = []
  for (let k = 0; k < runs; k++) {
    const trials = r.chance(0.25) ? 2 : 1
    const mode: RunMode = r.chance(0.12) ? r.pick(['all-failed', 'all-pending'] as const) : 'normal'
    const sharp = 0.1 + 0.3 * r.next()
    const run = addRun(project, { instrument: 'preprint-same-study', judge: `checker-${k}`, trials })
    runIds.push(run)
    shape.push(`run:${run} (${trials} trial(s), ${mode})`)
    const calls: CallSpec[] = []
    ids.forEach((item, i) => {
      if (r.chance(0.1)) return
      for (let trial = 0; trial < trials; trial++) {
        const status = statusOf(r, mode)
        calls.push(status === 'ok' ? { item, trial, judgement: answer(truth[i] as boolean, sharp) } : { item, trial, status })
      }
    })
    addCalls(project, run, calls)
  }
  const annotators = r.int(0, 3)
  for (let k = 0; k < annotators; k++) {
    annotate(project, 'preprint-same-study', ids.filter(() => r.chance(0.85)).map((item) => ({ item, judgement: answer(truth[ids.indexOf(item)] as boolean, 0.3) })), { human: `Person ${k}` })
  }
  shape.push(`${annotators} annotator(s)`)
  for (const run of runIds) {
    for (const method of ['platt', 'threshold'] as const) {
      if (!r.chance(0.4)) continue
      try {
        calibrate(project, { instrument: 'preprint-same-study', source: `run:${run}`, method, scoreField: 'p_same_study', resamples: MIN_RESAMPLES })
        shape.push(`${method} fit of run:${run}`)
      } catch (e) {
        if (!(e instanceof AssayError)) throw e
        shape.push(`${method} fit of run:${run} refused`)
      }
    }
  }
  return { instrument: 'preprint-same-study', shape }
}

// ---------------------------------------------------------------------------------------------------------------
// Invariants

const close = (a: number | null | undefined, b: number | null | undefined): boolean => (a === null || a === undefined ? b === null || b === undefined : typeof b === 'number' && Math.abs(a - b) < 1e-9)

/** Tallies of how often each kind of case was met over all projects, so the test cannot pass by meeting none. */
const met = new Map<string, number>()
const meet = (what: string) => met.set(what, (met.get(what) ?? 0) + 1)

function checkSources(report: Report): void {
  for (const s of report.sources) {
    expect(s.n_calls, `${s.id}: calls = answered + failed + unparseable + abstained + pending`).toBe(s.n_answered + s.n_failed + s.n_unparseable + s.n_abstained + s.n_pending)
    expect(s.n_items, `${s.id}: items asked ≤ items in scope`).toBeLessThanOrEqual(report.scope.n_items)
    if (s.role === 'judge' && s.left_out?.status !== 'not_chosen') {
      // A source with an answer to score is never left out; one without any is (left-out.ts).
      const hasAnswer = s.n_answered + s.n_unparseable + s.n_abstained > 0
      expect(s.left_out === undefined, `${s.id}: left out exactly when it has no answer to score`).toBe(hasAnswer)
      if (s.left_out) {
        meet('left-out source')
        expect(s.left_out.status).toBe(s.n_failed > 0 ? 'failed' : 'empty')
        expect(report.warnings.some((w) => w.code === 'left_out_source' && w.source === s.id), `${s.id}: a left_out_source warning`).toBe(true)
      }
    } else expect(s.left_out, `${s.id}: only judges are left out`).toBeUndefined()
    if (s.n_pending > 0 && !s.left_out) expect(report.warnings.some((w) => w.code === 'incomplete_run' && w.source === s.id), `${s.id}: pending calls warned`).toBe(true)
  }
}

function checkLeftOut(report: Report, html: string): void {
  const leftOut = new Set(report.sources.filter((s) => s.left_out).map((s) => s.id))
  if (leftOut.size === 0) return
  const mentions = (id: string): string[] => {
    const where: string[] = []
    if (report.summary.some((c) => c.source === id)) where.push('summary')
    if (report.fields.some((f) => f.comparisons.some((c) => c.source === id || c.criterion === id))) where.push('fields')
    const p = report.pairwise
    if (p) {
      if (p.rows.some((r) => r.source === id)) where.push('pairwise.rows')
      if (p.position.some((r) => r.source === id)) where.push('pairwise.position')
      if (p.systems.some((r) => r.source === id)) where.push('pairwise.systems')
      if (p.fatal_flaws.some((r) => r.source === id)) where.push('pairwise.fatal_flaws')
      if (p.published_agreement.some((r) => r.source === id)) where.push('pairwise.published_agreement')
      if ((p.judge_flaw_audits ?? []).some((r) => r.source === id)) where.push('pairwise.judge_flaw_audits')
    }
    if (report.ceiling.some((c) => c.judge_human.some((j) => j.source === id))) where.push('ceiling')
    if (report.judge_vs_judge.some((j) => j.first === id || j.second === id)) where.push('judge_vs_judge')
    if ((report.estimates?.rows ?? []).some((e) => e.source === id)) where.push('estimates')
    if ((report.probes?.detection ?? []).some((d) => d.source === id) || (report.probes?.framing_preference ?? []).some((d) => d.source === id)) where.push('probes')
    if (reportPlots(report).some((plot) => plot.svg.includes(`data-source="${id}"`))) where.push('plots')
    return where
  }
  for (const id of leftOut) expect(mentions(id), `left-out ${id} appears in`).toEqual([])
  expect(html).toBeTruthy()
}

function checkComparison(report: Report, c: ReportComparison, what: string): void {
  const ties = c.n_ties ?? 0
  // Denominators (docs/report-json.md, Denominators): every unit in scope is judged, without a value, or unanswered.
  expect(c.n_judged + c.n_no_value + c.n_failed + c.n_abstained + c.n_pending, `${what}: judged + no value + failed + abstained + pending = in scope`).toBe(c.n_in_scope)
  expect(c.n, `${what}: n = judged − unparseable − ties`).toBe(c.n_judged - c.n_unparseable - ties)
  expect(c.n_items, `${what}: items ≤ judged units`).toBeLessThanOrEqual(c.n_judged)
  expect(c.n_items, `${what}: items ≤ items in scope`).toBeLessThanOrEqual(report.scope.n_items)
  if (c.n_judged > 0) expect(c.n_items, `${what}: some item behind judged units`).toBeGreaterThan(0)
  if (c.correct !== undefined) {
    expect(c.correct, `${what}: correct ≤ units with a value`).toBeLessThanOrEqual(c.n)
    expect(close(c.accuracy, c.n_judged > 0 ? c.correct / c.n_judged : null), `${what}: accuracy = correct / judged`).toBe(true)
    expect(close(c.accuracy_of_all, c.n_in_scope > 0 ? c.correct / c.n_in_scope : null), `${what}: accuracy_of_all = correct / in scope`).toBe(true)
    // The baseline is scored on the judged units' labels, as the accuracy is.
    const perLabel = c.per_label ?? []
    expect(perLabel.reduce((s, l) => s + l.n, 0), `${what}: per-label n adds up to judged`).toBe(c.n_judged)
    expect(perLabel.reduce((s, l) => s + l.correct, 0), `${what}: per-label correct adds up`).toBe(c.correct)
    const largest = Math.max(0, ...perLabel.map((l) => l.n))
    expect(close(c.majority_baseline, c.n_judged > 0 ? largest / c.n_judged : null), `${what}: baseline = largest label share of judged`).toBe(true)
    if (c.accuracy != null && c.majority_baseline != null) expect(c.below_majority_baseline).toBe(c.accuracy < c.majority_baseline)
  }
  if (c.confusion) {
    const total = c.confusion.counts.flat().reduce((s, x) => s + x, 0)
    expect(total, `${what}: confusion counts the units with a value`).toBe(c.n)
    const diagonal = c.confusion.counts.reduce((s, row, k) => s + (row[k] ?? 0), 0)
    expect(diagonal, `${what}: confusion diagonal = correct`).toBe(c.correct)
  }
  if (c.n_positive !== undefined && c.n_negative !== undefined) expect(c.n_positive + c.n_negative, `${what}: positives + negatives = n`).toBe(c.n)
  if (c.reliability) expect(c.reliability.reduce((s, b) => s + b.count, 0), `${what}: reliability bins count n`).toBe(c.n)
  // A statistic null on the data says why, under its own name (docs: Conventions).
  for (const [key, value] of Object.entries(c)) {
    if (value === null && !['below_majority_baseline'].includes(key)) expect(c.reasons[key], `${what}: ${key} is null without a reason`).toBeTruthy()
  }
}

function checkPairwiseRow(report: Report, r: ReportPairwiseRow): void {
  const what = `pairwise ${r.source} vs ${r.criterion}`
  expect(r.n_judged + r.n_failed + r.n_abstained + r.n_pending, `${what}: judged + failed + abstained + pending = in scope`).toBe(r.n_in_scope)
  expect(r.correct, `${what}: correct ≤ judged − unparseable − ties`).toBeLessThanOrEqual(r.n_judged - r.n_unparseable - r.n_ties)
  expect(r.n_items, `${what}: items ≤ judged calls`).toBeLessThanOrEqual(r.n_judged)
  // One call per item and display order (trials voted).
  expect(r.n_judged, `${what}: at most two judged calls an item`).toBeLessThanOrEqual(2 * r.n_items)
  expect(r.n_items).toBeLessThanOrEqual(report.scope.n_items)
  expect(close(r.accuracy, r.n_judged > 0 ? r.correct / r.n_judged : null), `${what}: accuracy`).toBe(true)
  expect(close(r.accuracy_of_all, r.n_in_scope > 0 ? r.correct / r.n_in_scope : null), `${what}: accuracy_of_all`).toBe(true)
  if (r.n_ties > 0) expect(close(r.accuracy_ties_dropped, r.n_judged - r.n_ties > 0 ? r.correct / (r.n_judged - r.n_ties) : null), `${what}: ties dropped`).toBe(true)
  else expect(r.accuracy_ties_dropped, `${what}: ties dropped only with ties`).toBeUndefined()
  // The baseline is counted on the judged calls' labels: one denominator with the accuracy.
  const labelTotal = Object.values(r.label_counts).reduce((s, n) => s + n, 0)
  expect(labelTotal, `${what}: label counts add up to judged calls`).toBe(r.n_judged)
  const largest = Math.max(0, ...Object.values(r.label_counts))
  expect(close(r.majority_baseline, r.n_judged > 0 ? largest / r.n_judged : null), `${what}: baseline = largest label share`).toBe(true)
  if (r.n_judged > 0) expect([...r.majority_label].sort()).toEqual(Object.keys(r.label_counts).filter((l) => r.label_counts[l] === largest).sort())
  expect(r.random_baseline).toBe(0.5)
  if (r.accuracy !== null && r.majority_baseline !== null) expect(r.below_majority_baseline).toBe(r.accuracy < r.majority_baseline)
  for (const list of [r.per_label, r.per_label_side, ...(r.per_label_origin.length ? [r.per_label_origin] : [])]) {
    expect(list.reduce((s, l) => s + l.n, 0), `${what}: per-label n adds up to judged`).toBe(r.n_judged)
    expect(list.reduce((s, l) => s + l.correct, 0), `${what}: per-label correct adds up`).toBe(r.correct)
  }
  expect(r.per_label_side.map((l) => l.label)).toEqual(['a', 'b'])
  for (const by of new Set(r.subsets.map((s) => s.by))) {
    const group = r.subsets.filter((s) => s.by === by)
    const judged = group.reduce((s, x) => s + x.n_judged, 0)
    const correct = group.reduce((s, x) => s + x.correct, 0)
    // Every pair has a label and a set; only probes have a probe kind, and only some pairs a label source.
    if (by === 'label' || by === 'set') {
      expect(judged, `${what}: subsets by ${by} add up to judged`).toBe(r.n_judged)
      expect(correct, `${what}: subsets by ${by} add up to correct`).toBe(r.correct)
    } else {
      expect(judged, `${what}: subsets by ${by} within judged`).toBeLessThanOrEqual(r.n_judged)
      expect(correct, `${what}: subsets by ${by} within correct`).toBeLessThanOrEqual(r.correct)
    }
    for (const x of group) expect(close(x.accuracy, x.n_judged > 0 ? x.correct / x.n_judged : null), `${what}: subset ${by}=${x.value} accuracy`).toBe(true)
  }
  if (r.n_tied_votes !== undefined) expect(report.sources.find((s) => s.id === r.source)?.kind).toBe('human_majority')
  // The field table counts the same pairs by voted unit: never more units in scope than pairs the calls are on.
  const winner = report.fields.find((f) => f.name === 'winner')?.comparisons.find((c) => c.source === r.source && c.criterion === r.criterion)
  if (winner && r.n_tied_votes !== undefined) expect(winner.n_tied_votes, `${what}: the same tied votes as its winner row`).toBe(r.n_tied_votes)
}

function checkPosition(report: Report): void {
  for (const p of report.pairwise?.position ?? []) {
    const what = `position ${p.source}`
    expect(p.n_consistent).toBeLessThanOrEqual(p.n_compared)
    expect(p.n_compared, `${what}: pairs read in both orders ≤ pairs answered in both`).toBeLessThanOrEqual(p.n_pairs)
    expect(close(p.position_consistency, p.n_compared > 0 ? p.n_consistent / p.n_compared : null), `${what}: consistency`).toBe(true)
    if (p.position_consistency !== null) expect(close(p.conflict_rate, 1 - p.position_consistency)).toBe(true)
    if (p.n_pairs > 0) {
      const shares = [p.mt_bench_consistency, p.biased_to_first, p.biased_to_second, p.error_rate] as number[]
      expect(close(shares.reduce((s, x) => s + x, 0), 1), `${what}: the four MT-Bench shares add up to 1`).toBe(true)
      expect(close(p.biased_to_first, p.n_biased_first / p.n_pairs)).toBe(true)
      expect(close(p.biased_to_second, p.n_biased_second / p.n_pairs)).toBe(true)
      expect(close(p.error_rate, p.n_error / p.n_pairs)).toBe(true)
    }
    expect(p.n_picked_first).toBeLessThanOrEqual(p.n_answered)
    expect(close(p.first_position_preference, p.n_answered > 0 ? p.n_picked_first / p.n_answered : null), `${what}: first-position preference`).toBe(true)
  }
}

function checkFatalFlaws(report: Report): void {
  for (const f of report.pairwise?.fatal_flaws ?? []) {
    const what = `fatal flaws ${f.source}`
    meet('fatal-flaw row')
    expect(f.n_judged + f.n_no_value + f.n_unanswered, `${what}: judged + no value + unanswered = marked pairs asked`).toBe(f.n_fatal)
    expect(f.n_ruled_against).toBeLessThanOrEqual(f.n_judged)
    expect(close(f.fatal_flaw_recall, f.n_judged > 0 ? f.n_ruled_against / f.n_judged : null), `${what}: recall`).toBe(true)
    if (f.n_named !== undefined && f.n_named_judged !== undefined) expect(f.n_named).toBeLessThanOrEqual(f.n_named_judged)
  }
}

function checkCards(report: Report): void {
  const minItems = report.settings.min_items_for_interval
  const majority = report.sources.find((s) => s.kind === 'human_majority')?.id
  const rank = new Map(report.criteria.map((c, i) => [c, i]))
  const seen = new Set<string>()
  for (const card of report.summary) {
    const what = `card ${card.source}/${card.field}`
    expect(seen.has(`${card.source}/${card.field}`), `${what}: one card per judge and field`).toBe(false)
    seen.add(`${card.source}/${card.field}`)
    const source = report.sources.find((s) => s.id === card.source)
    expect(source?.role, `${what}: a judge`).toBe('judge')
    expect(source?.left_out, `${what}: never a left-out source`).toBeUndefined()
    const section = report.fields.find((f) => f.name === card.field)
    expect(section, what).toBeDefined()
    if (!section) continue
    const pairwise = card.field === 'winner' ? report.pairwise?.rows.find((r) => r.source === card.source && r.criterion === card.criterion) : undefined
    const row = pairwise ?? section.comparisons.find((r) => r.source === card.source && r.criterion === card.criterion)
    // The criterion is the first (in criteria order) scoring the judge on this field.
    const candidates = card.field === 'winner' && report.pairwise?.rows.some((r) => r.source === card.source)
      ? report.pairwise.rows.filter((r) => r.source === card.source).map((r) => r.criterion)
      : section.comparisons.filter((r) => r.source === card.source && r.n_in_scope > 0).map((r) => r.criterion)
    const first = [...candidates].sort((a, b) => (rank.get(a) ?? 99) - (rank.get(b) ?? 99))[0] ?? null
    if (section.level === 'nominal' || section.level === 'ordinal') expect(card.criterion, `${what}: the first criterion`).toBe(first)
    if (row && (section.level === 'nominal' || section.level === 'ordinal')) {
      meet('card with a row')
      expect(card.accuracy.value, `${what}: accuracy`).toBe(num(row, 'accuracy'))
      const ci = recommended(row.ci, row.n_items, minItems)
      expect([card.accuracy.ci_low, card.accuracy.ci_high, card.accuracy.ci_method], `${what}: accuracy interval`).toEqual([ci?.ci_low ?? null, ci?.ci_high ?? null, ci && ci.ci_low !== null ? ci.method : null])
      expect(card.n_items, `${what}: items`).toBe(row.n_items)
      expect(card.n_units, `${what}: units`).toBe(row.n_judged)
      expect(card.n_items).toBeLessThanOrEqual(report.scope.n_items)
      expect(card.majority_baseline, `${what}: baseline`).toBe(num(row, 'majority_baseline'))
      expect(card.random_baseline, `${what}: random baseline`).toBe(num(row, 'random_baseline'))
      expect([...card.majority_label].map(String).sort(), `${what}: majority label`).toEqual([...((row as { majority_label?: unknown[] }).majority_label ?? [])].map(String).sort())
      if (!pairwise) expect(card.n_without_value ?? 0, `${what}: units without a value`).toBe((row as ReportComparison).n_no_value)
      if (card.accuracy.value === null) expect(card.accuracy.reason, `${what}: a null accuracy says why`).toBeTruthy()
      // Units never answered or answered without a value are named, with the share of all in scope, and only then.
      const notJudged = row.n_failed + row.n_abstained + row.n_pending + ('n_no_value' in row ? row.n_no_value : 0)
      const ofAll = num(row, 'accuracy_of_all')
      if (notJudged > 0) {
        meet('card naming units not judged')
        expect(card.accuracy.definition, `${what}: names what it did not judge`).toContain('not judged: ')
        expect(card.accuracy.definition).toContain(`${ofAll === null ? '' : `${(100 * ofAll).toFixed(1)}% `}of all ${row.n_in_scope} in scope`)
      } else expect(card.accuracy.definition ?? '', `${what}: names nothing left out`).not.toContain('not judged')
    }
    // Verdicts follow from the figures.
    const unreadable = row?.n_unparseable ?? 0
    expect(card.verdicts.includes('mostly_unreadable'), `${what}: mostly unreadable`).toBe(card.accuracy.value !== null && unreadable > 0 && 2 * unreadable >= card.n_units)
    if (card.verdicts.includes('mostly_unreadable')) meet('card of a judge with mostly unreadable answers')
    expect(card.flags.too_few_items, `${what}: too few items`).toBe(card.n_items < minItems)
    expect(card.verdicts.includes('too_few_items')).toBe(card.flags.too_few_items)
    if (card.accuracy.value !== null && card.majority_baseline !== null) {
      expect(card.verdicts.includes('below_majority_baseline'), `${what}: below baseline`).toBe(card.accuracy.value < card.majority_baseline)
      expect(card.verdicts.includes('at_or_above_majority_baseline')).toBe(card.accuracy.value >= card.majority_baseline)
      if (card.accuracy.value < card.majority_baseline && card.level === 'nominal') {
        expect(report.warnings.some((w) => w.code === 'below_majority_baseline' && w.source === card.source), `${what}: below its baseline, and warned`).toBe(true)
      }
    }
    // Agreement: the field row against the human majority, and the ceiling section's judge row, one figure.
    const withPeople = majority ? section.comparisons.find((r) => r.source === card.source && r.criterion === majority) : undefined
    expect(card.agreement.against, `${what}: agreement against the human majority (its row: ${JSON.stringify(withPeople && { n_in_scope: withPeople.n_in_scope, n: withPeople.n, reasons: withPeople.reasons })}; card: ${card.agreement.reason})`).toBe(withPeople ? majority : null)
    expect(card.agreement.value, `${what}: agreement`).toBe(withPeople ? num(withPeople, card.agreement.statistic) : null)
    // Below the minimum of items the card takes the asymptotic interval where the statistic has one (as accuracy takes Wilson).
    const expected = withPeople ? recommendedAgreement(withPeople.ci, card.agreement.statistic, withPeople.n_items, minItems) : { interval: undefined, small: false }
    if (expected.small) meet('card agreement with its asymptotic interval')
    const agreementCi = expected.interval
    expect([card.agreement.ci_low, card.agreement.ci_high], `${what}: agreement interval`).toEqual([agreementCi?.ci_low ?? null, agreementCi?.ci_high ?? null])
    const ceiling = report.ceiling.find((c) => c.field === card.field)
    const judgeCeiling = ceiling?.judge_human.find((j) => j.source === card.source)?.against_majority[card.agreement.statistic]
    if (judgeCeiling) {
      meet('card agreement cited in the ceiling')
      expect(judgeCeiling.value, `${what}: the ceiling's judge row = the card's agreement`).toBe(card.agreement.value)
    }
    // The human ceiling is the ceiling section's, cited.
    const cited = ceiling?.human_human.against_majority_of_others[card.agreement.statistic]
    if (cited) {
      meet('card ceiling')
      expect(card.human_ceiling, `${what}: human ceiling`).toMatchObject({ value: cited.value, min: cited.min, max: cited.max, n_annotators: cited.n_annotators })
    } else expect(card.human_ceiling).toBeNull()
    if (card.human_ceiling?.min != null && card.human_ceiling.max != null && card.agreement.value !== null) {
      expect(card.verdicts.some((v) => v.endsWith('_human_ceiling') && v !== 'no_human_ceiling')).toBe(true)
    }
    // Position and fatal flaws: the pairwise section's rows.
    const position = card.field === 'winner' ? report.pairwise?.position.find((p) => p.source === card.source) : undefined
    if (position) {
      meet('card position')
      expect(card.position, `${what}: position`).toEqual({ n_pairs: position.n_pairs, n_compared: position.n_compared, consistency: position.position_consistency, biased_to_first: position.biased_to_first, biased_to_second: position.biased_to_second, preference_fairness: position.preference_fairness })
      expect(card.verdicts.includes('position_inconsistent')).toBe(position.position_consistency !== null && position.position_consistency < 0.5)
    } else expect(card.position).toBeNull()
    const flaw = card.field === 'winner' ? report.pairwise?.fatal_flaws.find((f) => f.source === card.source) : undefined
    if (flaw) {
      meet('card fatal flaws')
      expect(card.fatal_flaw_recall, `${what}: fatal-flaw recall`).toMatchObject({ value: flaw.fatal_flaw_recall, ci_low: flaw.ci.fatal_flaw_recall?.ci_low ?? null, ci_high: flaw.ci.fatal_flaw_recall?.ci_high ?? null, n: flaw.n_judged, n_no_value: flaw.n_no_value, n_unanswered: flaw.n_unanswered })
      expect(card.verdicts.includes('misses_fatal_flaws')).toBe(flaw.fatal_flaw_recall !== null && flaw.fatal_flaw_recall < 1)
    } else expect(card.fatal_flaw_recall).toBeNull()
  }
  // Every judge scored on a field against a criterion has its card.
  for (const section of report.fields) {
    if (!(section.level === 'nominal' || section.level === 'ordinal')) continue
    for (const c of section.comparisons) {
      if (c.n_in_scope > 0 && report.criteria.includes(c.criterion) && report.sources.find((s) => s.id === c.source)?.role === 'judge') {
        expect(seen.has(`${c.source}/${section.name}`), `a card for ${c.source} on ${section.name}`).toBe(true)
      }
    }
  }
}

function checkCeiling(report: Report): void {
  const majority = report.sources.find((s) => s.kind === 'human_majority')?.id
  const annotators = new Set(report.sources.filter((s) => s.kind === 'annotator').map((s) => s.id))
  for (const ceiling of report.ceiling) {
    const section = report.fields.find((f) => f.name === ceiling.field)
    for (const [statistic, cited] of Object.entries(ceiling.human_human.against_majority_of_others)) {
      const rows = (section?.comparisons ?? []).filter((r) => r.criterion === majority && annotators.has(r.source))
      const values = rows.filter((r) => r.n > 0).map((r) => num(r, statistic)).filter((v): v is number => v !== null)
      if (cited.value === null) continue
      meet('ceiling with a value')
      expect(cited.n_annotators, `ceiling ${ceiling.field}/${statistic}: annotators averaged`).toBe(values.length)
      expect(close(cited.value, values.reduce((s, v) => s + v, 0) / values.length), `ceiling ${ceiling.field}/${statistic}: the mean of the annotators' rows`).toBe(true)
      expect([cited.min, cited.max]).toEqual([Math.min(...values), Math.max(...values)])
    }
    for (const judge of ceiling.judge_human) {
      const row = section?.comparisons.find((r) => r.source === judge.source && r.criterion === majority)
      for (const [statistic, cited] of Object.entries(judge.against_majority)) {
        expect(cited.value, `ceiling ${ceiling.field}: ${judge.source} ${statistic} = its field row`).toBe(row ? num(row, statistic) : null)
        if (row) expect(cited.n, `ceiling ${ceiling.field}: ${judge.source} ${statistic} n`).toBe(statistic === 'accuracy' ? row.n_judged : row.n)
      }
    }
  }
}

function checkJudgeVsJudge(report: Report): void {
  for (const j of report.judge_vs_judge) {
    const what = `judge vs judge ${j.first}/${j.second} on ${j.field} vs ${j.criterion}`
    const rowOf = (source: string) => report.fields.find((f) => f.name === j.field)?.comparisons.find((c) => c.source === source && c.criterion === j.criterion)
    for (const source of [j.first, j.second]) {
      const row = rowOf(source)
      expect(row, `${what}: ${source} has a row`).toBeDefined()
      if (row) expect(j.n, `${what}: shared units ≤ ${source}'s`).toBeLessThanOrEqual(row.n)
    }
    expect(j.n_items).toBeLessThanOrEqual(j.n)
    if (j.both_correct !== undefined) {
      meet('judge vs judge with counts')
      expect((j.both_correct ?? 0) + (j.only_first ?? 0) + (j.only_second ?? 0) + (j.both_wrong ?? 0), `${what}: the four cells add up to n`).toBe(j.n)
      if (j.n > 0) {
        expect(close(j.first_value, ((j.both_correct ?? 0) + (j.only_first ?? 0)) / j.n)).toBe(true)
        expect(close(j.second_value, ((j.both_correct ?? 0) + (j.only_second ?? 0)) / j.n)).toBe(true)
      }
    }
    if (j.first_value !== null && j.second_value !== null) expect(close(j.difference, j.first_value - j.second_value), `${what}: difference`).toBe(true)
    // A fit beside its raw judge on the recalibration section's units: the same difference with the same interval.
    for (const fit of report.calibration ?? []) {
      const d = fit.decision
      const raw = j.first === fit.raw_source && j.second === fit.source
      if (!d?.accuracy_difference || fit.target_field !== j.field || fit.criterion !== j.criterion || !(raw || (j.first === fit.source && j.second === fit.raw_source))) continue
      const [onlyFirst, onlySecond] = raw ? [d.only_before, d.only_after] : [d.only_after, d.only_before]
      if (j.n !== d.n || j.both_correct !== d.both_correct || j.only_first !== onlyFirst || j.only_second !== onlySecond) continue
      meet('fit beside its raw judge')
      const sign = raw ? -1 : 1
      expect(close(j.difference, sign * (d.accuracy_difference.difference ?? NaN)), `${what}: the section's difference`).toBe(true)
      const bounds = [d.accuracy_difference.ci_low, d.accuracy_difference.ci_high].map((v) => (v === null ? null : sign * v))
      expect([j.ci.difference?.ci_low, j.ci.difference?.ci_high], `${what}: the section's interval`).toEqual(raw ? [bounds[1], bounds[0]] : bounds)
    }
  }
}

function checkCalibration(report: Report): void {
  for (const fit of report.calibration ?? []) {
    const what = `fit ${fit.fit_id} (${fit.method})`
    meet(`fit ${fit.method}`)
    const d = fit.decision
    if (d) {
      expect(d.both_correct + d.only_before + d.only_after + d.both_wrong, `${what}: McNemar cells add up to n`).toBe(d.n)
      expect(d.n, `${what}: decided on the eval units`).toBeLessThanOrEqual(fit.n_eval_units)
    }
    if (fit.method === 'both-orders' && d && fit.held_out) {
      // The fit's source judges the same pairs in its pairwise row, with the same correct count (docs: Recalibration).
      const row = report.pairwise?.rows.find((r) => r.source === fit.source && r.criterion === fit.criterion)
      if (row) {
        meet('both-orders fit with a pairwise row')
        expect(row.n_judged, `${what}: its pairwise row judges decision.n pairs`).toBe(d.n)
        expect(close(row.correct / Math.max(1, row.n_judged), d.after_accuracy ?? 0) || row.n_judged === 0, `${what}: same accuracy as its decision`).toBe(true)
        if (fit.changes) expect(row.n_ties, `${what}: its ties are the changes' ties`).toBe(fit.changes.n_ties)
      }
    }
  }
}

function checkProbes(report: Report): void {
  const probes = report.probes
  if (!probes) return
  meet('probes section')
  expect(probes.n_verified + probes.n_rejected + probes.n_unchecked).toBe(probes.n_probes)
  for (const d of probes.detection) {
    const what = `probe detection ${d.source}/${d.kind}`
    const verified = probes.by_kind.find((k) => k.kind === d.kind)?.verified ?? 0
    expect(d.n_probes + d.n_tied + d.n_unanswered, `${what}: scored + tied + unanswered ≤ verified probes`).toBeLessThanOrEqual(verified)
    expect(d.detected).toBeLessThanOrEqual(d.n_probes)
    expect(close(d.rate, d.n_probes > 0 ? d.detected / d.n_probes : null), `${what}: rate`).toBe(true)
  }
}

function checkRendered(report: Report, text: string, html: string): void {
  for (const card of report.summary) {
    if (card.accuracy.value === null) continue
    const shown = fmtPercent(card.accuracy.value)
    expect(text.includes(shown), `text report shows ${card.source}/${card.field} accuracy ${shown}`).toBe(true)
    expect(html.includes(shown), `HTML report shows ${card.source}/${card.field} accuracy ${shown}`).toBe(true)
  }
}


/** What a call of the written ones reports: a side, an abstention, or its status. */
function outcomeOf(c: CallSpec): 'a' | 'b' | 'abstained' | Exclude<Status, 'ok'> {
  if ((c.status ?? 'ok') !== 'ok') return c.status as Exclude<Status, 'ok'>
  const verdict = (c.judgement as { verdict: string }).verdict
  return verdict === 'abstain' ? 'abstained' : (verdict.charAt(0) as Side)
}

/** Of calls with no side, the status reported (docs: the first of answered, abstained, unparseable, failed, pending). */
function statusOfGroup(outcomes: readonly string[]): string {
  return ['abstained', 'unparseable', 'failed', 'pending'].find((s) => outcomes.includes(s)) as string
}

/**
 * Each run's pairwise row against the reference label and its winner row, recounted from the calls as written: one
 * call per pair and display order (trials voted), one unit per pair; a failed, abstained or pending call or unit is
 * never judged, an unreadable one is judged and wrong.
 */
function checkWritten(report: Report, written: Written): void {
  if (!report.criteria.includes('label:citations')) return
  for (const [run, calls] of written.runs) {
    const source = `run:${run}`
    const listed = report.sources.find((s) => s.id === source)
    const outcomes = calls.map(outcomeOf)
    expect(listed, source).toMatchObject({
      n_calls: calls.length,
      n_answered: outcomes.filter((o) => o === 'a' || o === 'b').length,
      n_abstained: outcomes.filter((o) => o === 'abstained').length,
      n_failed: outcomes.filter((o) => o === 'failed').length,
      n_unparseable: outcomes.filter((o) => o === 'unparseable').length,
      n_pending: outcomes.filter((o) => o === 'pending').length
    })
    if (listed?.left_out) continue
    const groups = new Map<string, string[]>()
    const units = new Map<number, string[]>()
    for (const c of calls) {
      if (!written.labels.has(c.item)) continue
      const key = `${c.item}/${c.order ?? 0}`
      groups.set(key, [...(groups.get(key) ?? []), outcomeOf(c)])
      units.set(c.item, [...(units.get(c.item) ?? []), outcomeOf(c)])
    }
    const expected = { n_in_scope: groups.size, n_judged: 0, n_failed: 0, n_unparseable: 0, n_abstained: 0, n_pending: 0, n_ties: 0, correct: 0 }
    for (const [key, list] of groups) {
      const a = list.filter((o) => o === 'a').length
      const b = list.filter((o) => o === 'b').length
      const truth = written.labels.get(Number(key.split('/')[0]))
      if (a + b > 0) {
        expected.n_judged++
        if (a === b) expected.n_ties++
        else if ((a > b ? 'a' : 'b') === truth) expected.correct++
        continue
      }
      const status = statusOfGroup(list)
      expected[`n_${status}` as 'n_failed']++
      if (status === 'unparseable') expected.n_judged++
    }
    const row = report.pairwise?.rows.find((x) => x.source === source && x.criterion === 'label:citations')
    if (groups.size === 0) {
      expect(row, `${source}: no pairwise row without a labelled call`).toBeUndefined()
      continue
    }
    meet('pairwise row recounted')
    expect(row, `${source}: its pairwise row recounted from its calls`).toMatchObject(expected)
    const field = report.fields.find((f) => f.name === 'winner')?.comparisons.find((x) => x.source === source && x.criterion === 'label:citations')
    const unitStatus = [...units.values()].map((list) => (list.some((o) => o === 'a' || o === 'b') ? 'answered' : statusOfGroup(list)))
    const count = (s: string) => unitStatus.filter((u) => u === s).length
    expect(field, `${source}: its winner row counted by unit`).toMatchObject({ n_in_scope: units.size, n_failed: count('failed'), n_abstained: count('abstained'), n_pending: count('pending'), n_unparseable: count('unparseable') })
    expect((field?.n_judged ?? 0) + (field?.n_no_value ?? 0), `${source}: answered and unreadable units are judged or without a value`).toBe(count('answered') + count('unparseable'))
  }
}

function checkReport(report: Report): void {
  const parsed = reportSchema.safeParse(report)
  expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 3))).toBe(true)
  checkSources(report)
  const annotators = report.sources.filter((x) => x.kind === 'annotator').length
  expect(report.warnings.some((w) => w.code === 'no_human_ceiling'), 'no_human_ceiling warned exactly when judges have fewer than two annotators beside them').toBe(annotators < 2 && report.sources.some((x) => x.role === 'judge'))
  expect(report.warnings.some((w) => w.code === 'no_criterion')).toBe(report.criteria.length === 0)
  for (const section of report.fields) {
    for (const c of section.comparisons) {
      expect(c.field).toBe(section.name)
      checkComparison(report, c, `${section.name}: ${c.source} vs ${c.criterion}`)
    }
  }
  for (const r of report.pairwise?.rows ?? []) checkPairwiseRow(report, r)
  checkPosition(report)
  checkFatalFlaws(report)
  checkCards(report)
  checkCeiling(report)
  checkJudgeVsJudge(report)
  checkCalibration(report)
  checkProbes(report)
  const html = renderReportHtml(report)
  checkRendered(report, renderReportText(report), html)
  checkLeftOut(report, html)
  if (report.summary.length) meet('report with cards')
}

/** Every row's baseline and what it rests on, by table, source and criterion. */
function baselines(report: Report): Map<string, unknown> {
  const out = new Map<string, unknown>()
  for (const r of report.pairwise?.rows ?? []) {
    // A row with no judged call counts no label: its (empty) counts are named in the report's terms, whatever they are.
    out.set(`pairwise ${r.source} vs ${r.criterion}`, { n_judged: r.n_judged, correct: r.correct, majority_baseline: r.majority_baseline, majority_label: r.majority_label, ...(r.n_judged > 0 ? { label_counts: r.label_counts } : {}) })
  }
  for (const f of report.fields) {
    for (const c of f.comparisons) {
      if (c.majority_baseline !== undefined) out.set(`${f.name} ${c.source} vs ${c.criterion}`, { n_judged: c.n_judged, correct: c.correct, majority_baseline: c.majority_baseline, majority_label: c.majority_label })
    }
  }
  return out
}

// ---------------------------------------------------------------------------------------------------------------

beforeAll(async () => {
  probeTemplate = (await demoWithCheckedProbes(tmp.file('probe-template.assay'), 4, (k) => k < 3)).path
}, 120_000)

describe('reports of small random projects agree with themselves', () => {
  for (const seed of SEEDS) {
    it(`project ${seed}`, async () => {
      const r = rngOf(seed)
      const kind = seed % 8 === 3 || seed % 8 === 6 ? 'preprint' : seed % 10 === 7 ? 'probes' : 'pairs'
      const path = tmp.file(`p${seed}.assay`)
      let project: Project
      let built: Built
      if (kind === 'probes') ({ project, built } = await probeProject(path, r))
      else {
        project = await Project.create(path)
        built = kind === 'preprint' ? preprintProject(project, r) : pairwiseProject(project, r)
      }
      try {
        // Some reports cover one split, or keep only some judges (the others listed as not chosen).
        const split = r.chance(0.15) ? r.pick(['dev', 'test'] as const) : undefined
        const judges = (project.db.prepare(`SELECT id FROM runs ORDER BY id`).all() as Array<{ id: number }>).map((x) => `run:${x.id}`)
        const sources = !split && judges.length > 1 && r.chance(0.15) ? judges.slice(0, 1) : undefined
        if (split) built.shape.push(`report on ${split}`)
        if (sources) built.shape.push(`report of ${sources.join(', ')} only`)
        const report = projectReport(project.db, { instrument: built.instrument, seed, resamples: MIN_RESAMPLES, split, sources })
        try {
          checkReport(report)
          if (built.written && !split && !sources) checkWritten(report, built.written)
        } catch (e) {
          throw new Error(`seed ${seed}, ${built.shape.join('; ')}:\n${(e as Error).message}`)
        }
        if (built.addUnrelated && seed % 3 === 0 && !split && !sources) {
          // Items no source of the first report was asked about: every row of the first report keeps its baseline.
          const before = baselines(report)
          built.addUnrelated(project)
          const after = baselines(projectReport(project.db, { instrument: built.instrument, seed, resamples: MIN_RESAMPLES }))
          meet('baseline variant')
          for (const [key, value] of before) {
            // A criterion's own rows gain the new items (it labels them); the judges' and people's do not.
            if (key.includes(' vs ') && !key.split(' vs ')[0]?.match(/ (label|reference)[:\w-]*$/)) {
              expect(after.get(key), `seed ${seed}: ${key} after unrelated items joined`).toEqual(value)
            }
          }
        }
      } finally {
        project.close()
      }
    })
  }

  it('met every kind of case', () => {
    for (const what of ['left-out source', 'card with a row', 'card position', 'card fatal flaws', 'card ceiling', 'ceiling with a value', 'fit both-orders', 'fit platt', 'fit threshold', 'probes section', 'baseline variant', 'judge vs judge with counts', 'pairwise row recounted', 'card naming units not judged', 'card of a judge with mostly unreadable answers', 'card agreement with its asymptotic interval', 'fit beside its raw judge']) {
      expect(met.get(what) ?? 0, what).toBeGreaterThan(0)
    }
  })
})
