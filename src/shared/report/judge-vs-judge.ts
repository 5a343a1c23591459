import type { FieldSpec } from '../instruments/types'
import { mcnemarExact, mcnemarMidP, type BootstrapInterval, type Estimate } from '../stats'
import type { BootstrapPlan } from './bootstrap-plan'
import { bootstrapCi, put } from './intervals'
import { itemOfUnitKey, sameValue, type ResolvedSource, type Value } from './resolve'
import type { ReportJudgeVsJudge } from './schema'
import { judgeVsJudgeDefinition } from './definitions'

interface PairedUnit {
  item: number
  n: number
  first: number
  second: number
}

/**
 * Two judges on the same units (both answered, the criterion labels them). Categories: exact McNemar on
 * right/wrong and a paired bootstrap of the accuracy difference; numbers: a paired bootstrap of the difference in
 * mean absolute difference from the criterion. The difference is evaluated on the report's shared resamples of
 * items, so both judges are always scored on the same draw (a paired cluster bootstrap).
 */
export function judgeVsJudge(
  field: FieldSpec,
  first: ResolvedSource,
  second: ResolvedSource,
  criterionId: string,
  criterion: ReadonlyMap<string, Value>,
  plan: BootstrapPlan
): ReportJudgeVsJudge | null {
  const categorical = field.level === 'nominal' || field.level === 'ordinal'
  const firstValues = first.values.get(field.name)
  const secondValues = second.values.get(field.name)
  if (!firstValues || !secondValues) return null
  const units = new Map<number, PairedUnit>()
  let n = 0
  let bothCorrect = 0
  let onlyFirst = 0
  let onlySecond = 0
  let bothWrong = 0
  for (const [key, truth] of criterion) {
    const a = firstValues.get(key)
    const b = secondValues.get(key)
    if (a === undefined || b === undefined) continue
    let scoreA: number
    let scoreB: number
    if (categorical) {
      const okA = sameValue(a, truth)
      const okB = sameValue(b, truth)
      if (okA && okB) bothCorrect++
      else if (okA) onlyFirst++
      else if (okB) onlySecond++
      else bothWrong++
      scoreA = okA ? 1 : 0
      scoreB = okB ? 1 : 0
    } else {
      if (typeof truth !== 'number' || typeof a !== 'number' || typeof b !== 'number') continue
      scoreA = Math.abs(a - truth)
      scoreB = Math.abs(b - truth)
    }
    n++
    const item = itemOfUnitKey(key)
    const unit = units.get(item) ?? { item, n: 0, first: 0, second: 0 }
    unit.n++
    unit.first += scoreA
    unit.second += scoreB
    units.set(item, unit)
  }
  if (n === 0) return null
  const statistic = categorical ? 'accuracy' : 'mean_abs_diff'
  const list = [...units.values()]
  const firstScores = Float64Array.from(list, (u) => u.first)
  const secondScores = Float64Array.from(list, (u) => u.second)
  const none = { value: null, reason: 'no shared units' } as const
  const total = (scores: Float64Array) => scores.reduce((s, v) => s + v, 0)
  const firstValue: Estimate = { value: total(firstScores) / n }
  const secondValue: Estimate = { value: total(secondScores) / n }
  const reasons: Record<string, string> = {}
  const row: Record<string, unknown> = { field: field.name, criterion: criterionId, first: first.id, second: second.id, n, n_items: units.size, statistic, definition: judgeVsJudgeDefinition(statistic, n, units.size, criterionId) }
  if (categorical) {
    Object.assign(row, { both_correct: bothCorrect, only_first: onlyFirst, only_second: onlySecond, both_wrong: bothWrong })
    const test = mcnemarExact(onlyFirst, onlySecond)
    row.mcnemar_p = test.value
    row.mcnemar_mid_p = mcnemarMidP(onlyFirst, onlySecond).value
    if (test.note) reasons.mcnemar_p = reasons.mcnemar_mid_p = test.note
  }
  put(row, reasons, 'first_value', firstValue)
  put(row, reasons, 'second_value', secondValue)
  put(row, reasons, 'difference', { value: (firstValue.value as number) - (secondValue.value as number) })
  const result: ReportJudgeVsJudge = { ...(row as Omit<ReportJudgeVsJudge, 'ci' | 'reasons'>), ci: {}, reasons }
  const difference = (a: number, b: number, count: number): Estimate => (count === 0 ? none : { value: (a - b) / count })
  const done = (interval: BootstrapInterval) => (result.ci.difference = bootstrapCi(interval, true))
  if (list.every((u) => Number.isSafeInteger(u.first) && Number.isSafeInteger(u.second))) {
    // Right/wrong counts (or whole-number distances): exact in any order, so summed with the report's other counts.
    const contributions = plan.sumColumns(list.length * 3)
    for (const u of list) {
      contributions.push(u.item, 0, u.first)
      contributions.push(u.item, 1, u.second)
      contributions.push(u.item, 2, u.n)
    }
    plan.addSums(3, contributions, 1, (sums) => [difference(sums[0] as number, sums[1] as number, sums[2] as number)], ([interval]) => done(interval as BootstrapInterval))
    return result
  }
  // Fractional distances: summed item by item in a fixed order, so every resample rounds the same way.
  const index = Int32Array.from(list, (u) => plan.index(u.item))
  const counts = Float64Array.from(list, (u) => u.n)
  plan.addOrderedSums(index, [firstScores, secondScores, counts], ([a, b, count]) => difference(a as number, b as number, count as number), done)
  return result
}
