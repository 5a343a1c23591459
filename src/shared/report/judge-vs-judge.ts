import type { FieldSpec } from '../instruments/types'
import { mcnemarExact, pairedBootstrapDifference, type Estimate } from '../stats'
import { bootstrapCi, put, type BootstrapSettings } from './intervals'
import { itemOfUnitKey, valueKey, type ResolvedSource, type Value } from './resolve'
import type { ReportJudgeVsJudge } from './schema'

interface PairedUnit {
  n: number
  first: number
  second: number
}

/**
 * Two judges on the same units (both answered, the criterion labels them). Categories: exact McNemar on
 * right/wrong and a paired bootstrap of the accuracy difference; numbers: a paired bootstrap of the difference in
 * mean absolute difference from the criterion. Both resample items, keeping each item's units together.
 */
export function judgeVsJudge(
  field: FieldSpec,
  first: ResolvedSource,
  second: ResolvedSource,
  criterionId: string,
  criterion: ReadonlyMap<string, Value>,
  bootstrap: BootstrapSettings
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
      const right = valueKey(truth)
      const okA = valueKey(a) === right
      const okB = valueKey(b) === right
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
    const unit = units.get(item) ?? { n: 0, first: 0, second: 0 }
    unit.n++
    unit.first += scoreA
    unit.second += scoreB
    units.set(item, unit)
  }
  if (n === 0) return null
  const statistic = categorical ? 'accuracy' : 'mean_abs_diff'
  const mean = (pick: (u: PairedUnit) => number) => (resample: readonly PairedUnit[]): Estimate => {
    let total = 0
    let count = 0
    for (const u of resample) {
      total += pick(u)
      count += u.n
    }
    return count === 0 ? { value: null, reason: 'no shared units' } : { value: total / count }
  }
  const difference = pairedBootstrapDifference([...units.values()], mean((u) => u.first), mean((u) => u.second), bootstrap)
  const reasons: Record<string, string> = {}
  const row: Record<string, unknown> = { field: field.name, criterion: criterionId, first: first.id, second: second.id, n, n_items: units.size, statistic }
  if (categorical) {
    Object.assign(row, { both_correct: bothCorrect, only_first: onlyFirst, only_second: onlySecond, both_wrong: bothWrong })
    const test = mcnemarExact(onlyFirst, onlySecond)
    row.mcnemar_p = test.value
    if (test.note) reasons.mcnemar_p = test.note
  }
  put(row, reasons, 'first_value', difference.first)
  put(row, reasons, 'second_value', difference.second)
  put(row, reasons, 'difference', difference.point)
  return { ...(row as Omit<ReportJudgeVsJudge, 'ci' | 'reasons'>), ci: { difference: bootstrapCi(difference, true) }, reasons }
}
