import type { FieldSpec } from '../instruments/types'
import { mcnemarExact, mcnemarMidP, type BootstrapInterval, type Estimate } from '../stats'
import type { BootstrapPlan } from './bootstrap-plan'
import { bootstrapCi, put } from './intervals'
import { forEachUnit, sameValue, valueReader, type ResolvedSource, type Value } from './resolve'
import type { ReportJudgeVsJudge } from './schema'
import { judgeVsJudgeDefinition } from './definitions'
import { probabilityOutcome, type OutcomeRule } from './outcomes'

/**
 * One criterion's units on one field, listed once for every pair of judges: the keys and true values in the
 * criterion's order, each unit's item as a dense index (in order of first appearance) and its item id.
 */
interface CriterionUnits {
  /** The criterion's values the units were read from, and each unit's key and code (see forEachUnit). */
  criterion: ReadonlyMap<string, Value>
  keys: string[]
  codes: number[]
  truths: Value[]
  itemIndex: Int32Array
  itemIds: number[]
}

function criterionUnits(criterion: ReadonlyMap<string, Value>): CriterionUnits {
  const codes: number[] = []
  const truths: Value[] = []
  const itemIndex = new Int32Array(criterion.size)
  const itemIds: number[] = []
  const indexOfItem = new Map<number, number>()
  const keys: string[] = []
  forEachUnit(criterion, (key, code, item, truth) => {
    let index = indexOfItem.get(item)
    if (index === undefined) {
      index = itemIds.length
      indexOfItem.set(item, index)
      itemIds.push(item)
    }
    itemIndex[truths.length] = index
    keys.push(key)
    codes.push(code)
    truths.push(truth)
  })
  return { criterion, keys, codes, truths, itemIndex, itemIds }
}

/** A judge's values on the criterion's units, in the criterion's order (undefined: no value there). */
function alignedValues(values: ReadonlyMap<string, Value> | undefined, units: CriterionUnits): Array<Value | undefined> | null {
  if (!values) return null
  const read = valueReader(values, units.criterion)
  return units.keys.map((key, u) => read(key, units.codes[u] as number))
}

/**
 * How a judge's value on a unit is scored against the criterion's, where the field is a number: its distance from the
 * criterion's number, or for a probability scored against an outcome (as its field table scores it) its squared error
 * from that outcome (`own`: the judge's own answer, for a confidence in it).
 */
interface NumberScore {
  statistic: 'mean_abs_diff' | 'brier'
  score(value: Value | undefined, own: Value | undefined, truth: Value): number | null
}

const DISTANCE: NumberScore = {
  statistic: 'mean_abs_diff',
  score: (value, _own, truth) => (typeof value === 'number' && typeof truth === 'number' ? Math.abs(value - truth) : null)
}

function outcomeScore(rule: OutcomeRule): NumberScore {
  return {
    statistic: 'brier',
    score(value, own, truth) {
      if (typeof value !== 'number' || !(value >= 0 && value <= 1)) return null
      const y = rule.kind === 'criterion_field' ? (truth === true || truth === 1 ? 1 : truth === false || truth === 0 ? 0 : null) : own === undefined ? null : sameValue(own, truth) ? 1 : 0
      return y === null ? null : (value - y) ** 2
    }
  }
}

/** Every pair of judges on every field and criterion where they share units. */
export function judgeVsJudgeSection(
  fields: readonly FieldSpec[],
  criteria: readonly ResolvedSource[],
  judges: readonly ResolvedSource[],
  plan: BootstrapPlan,
  instrumentId: string
): ReportJudgeVsJudge[] {
  const rows: ReportJudgeVsJudge[] = []
  for (const field of fields) {
    // A probability with an outcome rule is scored against the criterion's outcome, never against its probability.
    const rule = probabilityOutcome(instrumentId, field)
    const numberScore = rule ? outcomeScore(rule) : DISTANCE
    for (const criterion of criteria) {
      const units = criterionUnits(criterion.values.get(rule?.field ?? field.name) ?? new Map<string, Value>())
      // Each judge's values read once per criterion, not once per pair it is in.
      const aligned = judges.map((judge) => alignedValues(judge.values.get(field.name), units))
      const own = rule?.kind === 'correctness' ? judges.map((judge) => alignedValues(judge.values.get(rule.field), units)) : null
      const valuesOf = (k: number): JudgeValues | null => {
        const values = aligned[k]
        return values ? { values, own: own?.[k] ?? null } : null
      }
      judges.forEach((first, i) => {
        for (let j = i + 1; j < judges.length; j++) {
          const row = judgeVsJudge(field, first, judges[j] as ResolvedSource, criterion.id, criterion.input.name, units, valuesOf(i), valuesOf(j), plan, numberScore)
          if (row) rows.push(row)
        }
      })
    }
  }
  return rows
}

/** A judge's values on the criterion's units, and where its value is a confidence, its own answers there. */
interface JudgeValues {
  values: ReadonlyArray<Value | undefined>
  own: ReadonlyArray<Value | undefined> | null
}

/**
 * Two judges on the same units (both answered, the criterion labels them). Categories: exact McNemar on
 * right/wrong and a paired bootstrap of the accuracy difference; numbers: a paired bootstrap of the difference in
 * mean absolute difference from the criterion. The difference is evaluated on the report's shared resamples of
 * items, so both judges are always scored on the same draw (a paired cluster bootstrap).
 */
function judgeVsJudge(
  field: FieldSpec,
  first: ResolvedSource,
  second: ResolvedSource,
  criterionId: string,
  criterionName: string,
  units: CriterionUnits,
  firstJudge: JudgeValues | null,
  secondJudge: JudgeValues | null,
  plan: BootstrapPlan,
  numberScore: NumberScore
): ReportJudgeVsJudge | null {
  const categorical = field.level === 'nominal' || field.level === 'ordinal'
  if (!firstJudge || !secondJudge) return null
  const firstValues = firstJudge.values
  const secondValues = secondJudge.values
  // Per item (by its dense index): shared units and each judge's summed score, in order of first appearance.
  const items = units.itemIds.length
  const unitCount = new Int32Array(items)
  const firstSum = new Float64Array(items)
  const secondSum = new Float64Array(items)
  const order: number[] = []
  let n = 0
  let bothCorrect = 0
  let onlyFirst = 0
  let onlySecond = 0
  let bothWrong = 0
  for (let u = 0; u < units.keys.length; u++) {
    const a = firstValues[u]
    const b = secondValues[u]
    if (a === undefined || b === undefined) continue
    const truth = units.truths[u] as Value
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
      const first = numberScore.score(a, firstJudge.own?.[u], truth)
      const second = numberScore.score(b, secondJudge.own?.[u], truth)
      if (first === null || second === null) continue
      scoreA = first
      scoreB = second
    }
    n++
    const index = units.itemIndex[u] as number
    if (unitCount[index] === 0) order.push(index)
    unitCount[index] = (unitCount[index] as number) + 1
    firstSum[index] = (firstSum[index] as number) + scoreA
    secondSum[index] = (secondSum[index] as number) + scoreB
  }
  if (n === 0) return null
  const statistic = categorical ? 'accuracy' : numberScore.statistic
  // The shared items in order of first appearance, read by their dense index (no record per item).
  const itemCount = order.length
  const firstScores = new Float64Array(itemCount)
  const secondScores = new Float64Array(itemCount)
  for (let i = 0; i < itemCount; i++) {
    firstScores[i] = firstSum[order[i] as number] as number
    secondScores[i] = secondSum[order[i] as number] as number
  }
  const none = { value: null, reason: 'no shared units' } as const
  const total = (scores: Float64Array) => scores.reduce((s, v) => s + v, 0)
  const firstValue: Estimate = { value: total(firstScores) / n }
  const secondValue: Estimate = { value: total(secondScores) / n }
  const reasons: Record<string, string> = {}
  const row: Record<string, unknown> = { field: field.name, criterion: criterionId, first: first.id, second: second.id, n, n_items: itemCount, statistic, definition: judgeVsJudgeDefinition(statistic, n, itemCount, criterionName) }
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
  if (firstScores.every(Number.isSafeInteger) && secondScores.every(Number.isSafeInteger)) {
    // Right/wrong counts (or whole-number distances): exact in any order, so summed with the report's other counts.
    const contributions = plan.sumColumns(itemCount * 3)
    for (let i = 0; i < itemCount; i++) {
      const index = order[i] as number
      const item = units.itemIds[index] as number
      contributions.push(item, 0, firstScores[i] as number)
      contributions.push(item, 1, secondScores[i] as number)
      contributions.push(item, 2, unitCount[index] as number)
    }
    plan.addSums(3, contributions, 1, (sums) => [difference(sums[0] as number, sums[1] as number, sums[2] as number)], ([interval]) => done(interval as BootstrapInterval))
    return result
  }
  // Fractional distances: summed item by item in a fixed order, so every resample rounds the same way.
  const index = Int32Array.from(order, (i) => plan.index(units.itemIds[i] as number))
  const counts = Float64Array.from(order, (i) => unitCount[i] as number)
  plan.addOrderedSums(index, [firstScores, secondScores, counts], ([a, b, count]) => difference(a as number, b as number, count as number), done)
  return result
}
