import { AssayError } from '../../shared/errors'
import { seededUnit } from '../../shared/protocol'
import type { ItemKind } from '../../shared/items/kinds'
import { referenceLabel } from '../../shared/items/reference-label'
import { getMeta, setMeta } from '../store/meta'
import type { Project } from '../store/project'
import { answeredSplitItemCount, assignSplits, itemsToSplit, judgedItemCount } from '../store/items'
import { fitItemRows } from '../store/calibration-fits'

export interface SplitOptions {
  /** Share of each stratum that goes to the test split (0 < f < 1). */
  testFraction: number
  seed: string
  set?: string | undefined
  kind?: ItemKind | undefined
}

export interface SplitPlan {
  seed: string
  testFraction: number
  strata: Array<{ stratum: string; items: number; test: number }>
  dev: number
  test: number
  /** Fits whose items this split moves out of the split they were fitted on: no longer held out (reports say so). */
  fitsNoLongerHeldOut: Array<{ id: number; instrument: string; method: string; movedItems: number }>
  createdAt: string
  /** What the curator should know before relying on the split (items judged before it). */
  warnings: string[]
}

/**
 * The stratum of an item: its set, and its reference label where it has one (a proposal pair's `label`, a preprint
 * pair's `same_study`), so both splits keep the balance the report's "Reference label" criterion is scored on.
 */
function stratumOf(set: string, kind: string, payload: Record<string, unknown>): string {
  const label = referenceLabel(kind, payload)
  return label === null || label === '' ? `${set} · ${kind}` : `${set} · ${kind} · ${String(label)}`
}

/**
 * Seeded, stratified dev/test split. Within each stratum items are ordered by a hash of seed and item id and the
 * first round(n·f) go to test, so the same seed always gives the same split. Refused once the items are in use
 * (answered by people or judged by models): a split that moves used items is no longer held out.
 */
export function createSplit(project: Project, opts: SplitOptions): SplitPlan {
  if (!(opts.testFraction > 0 && opts.testFraction < 1)) {
    throw new AssayError('invalid_input', 'The test fraction must be between 0 and 1', [{ field: 'testFraction', message: String(opts.testFraction) }])
  }
  const db = project.db
  const selection = { set: opts.set ?? null, kind: opts.kind ?? null }
  const used = answeredSplitItemCount(db, selection)
  if (used > 0) {
    throw new AssayError(
      'conflict',
      `The split is frozen: ${used} item(s) already in a split have answers or judgements. Re-splitting them would leak test items into development.`
    )
  }
  const rows = itemsToSplit(db, selection)
  if (rows.length === 0) throw new AssayError('not_found', 'No items match this selection')
  const strata = new Map<string, typeof rows>()
  for (const r of rows) {
    const key = stratumOf(r.set_name, r.kind, JSON.parse(r.payload) as Record<string, unknown>)
    const list = strata.get(key) ?? []
    list.push(r)
    strata.set(key, list)
  }
  const assignment: Array<{ id: number; split: 'dev' | 'test' }> = []
  const summary: SplitPlan['strata'] = []
  const sorted = [...strata].sort(([a], [b]) => a.localeCompare(b))
  const quotas = testQuotas(sorted.map(([stratum, list]) => ({ stratum, n: list.length })), opts.testFraction, opts.seed)
  sorted.forEach(([stratum, list], s) => {
    const ordered = [...list].sort((x, y) => seededUnit(opts.seed, `split:${x.external_id}`) - seededUnit(opts.seed, `split:${y.external_id}`))
    const nTest = quotas[s]!
    ordered.forEach((r, i) => assignment.push({ id: r.id, split: i < nTest ? 'test' : 'dev' }))
    summary.push({ stratum, items: ordered.length, test: nTest })
  })
  const judged = judgedItemCount(db, selection)
  const warnings = judged
    ? [`${judged} of these items already have judge answers: if a judge prompt was revised on them, the test items among them are no longer held out (those answers stay; report them by split)`]
    : []
  const plan: SplitPlan = {
    seed: opts.seed,
    testFraction: opts.testFraction,
    strata: summary,
    test: assignment.filter((a) => a.split === 'test').length,
    dev: assignment.filter((a) => a.split === 'dev').length,
    fitsNoLongerHeldOut: fitsMovedBy(project, assignment),
    createdAt: new Date().toISOString(),
    warnings
  }
  project.write((db) => {
    assignSplits(db, assignment)
    const history = JSON.parse(getMeta(db, 'split_plans') ?? '[]') as unknown[]
    history.push({ ...plan, set: opts.set ?? null, kind: opts.kind ?? null })
    setMeta(db, 'split_plans', JSON.stringify(history))
  })
  return plan
}

/**
 * The fits that learned from items this assignment moves out of their fit split. Nothing needs writing: a fit records
 * its items and its fit split, so the report sees the move from the items' splits and gives no held-out figures.
 */
function fitsMovedBy(project: Project, assignment: ReadonlyArray<{ id: number; split: 'dev' | 'test' }>): SplitPlan['fitsNoLongerHeldOut'] {
  const db = project.db
  const rows = fitItemRows(db)
  const newSplit = new Map(assignment.map((a) => [a.id, a.split]))
  const out = new Map<number, SplitPlan['fitsNoLongerHeldOut'][number]>()
  for (const r of rows) {
    const moved = newSplit.get(r.item_id)
    const fitSplit = (JSON.parse(r.spec) as { fit_split?: string }).fit_split
    if (moved === undefined || moved === fitSplit) continue
    const entry = out.get(r.id) ?? { id: r.id, instrument: r.instrument_id, method: r.method, movedItems: 0 }
    entry.movedItems++
    out.set(r.id, entry)
  }
  return [...out.values()]
}

/**
 * Test items per stratum: each stratum its share n·f rounded down, and the items left to reach round(N·f) overall
 * given to the strata with the largest remainders, ties in seeded order. Rounding each stratum on its own sent every
 * one-item stratum to test at f = 0.5 (round(0.5) = 1); now one-item strata are shared between dev and test.
 */
export function testQuotas(strata: ReadonlyArray<{ stratum: string; n: number }>, fraction: number, seed: string): number[] {
  const quotas = strata.map((s) => Math.floor(s.n * fraction + 1e-9))
  const total = Math.round(strata.reduce((sum, s) => sum + s.n, 0) * fraction)
  let left = total - quotas.reduce((a, b) => a + b, 0)
  const order = strata
    .map((s, i) => ({ i, remainder: s.n * fraction - quotas[i]!, tie: seededUnit(seed, `split-stratum:${s.stratum}`) }))
    .filter((x) => x.remainder > 1e-9)
    .sort((a, b) => b.remainder - a.remainder || a.tie - b.tie)
  for (const x of order) {
    if (left <= 0) break
    quotas[x.i]!++
    left--
  }
  return quotas
}
