import type { FieldSpec } from '../instruments/types'
import { JUDGE_KINDS, type AuditInput } from '../report/input'
import { valueKey, type Value } from '../report/resolve'
import { classicalMean, ppiMean, roganGladen, type MeanEstimate, type PpiMean } from '../stats'
import { resolveInput } from './data'
import type { EstimateRow, EstimatesSection } from './schema'

export const ESTIMATES_METHOD =
  'prediction-powered inference for a mean (Angelopoulos et al. 2023; PPI++ power tuning, Angelopoulos, Duchi & Zrnic 2024; ' +
  'as ppi_py ppi_mean_ci, normal interval) and Rogan–Gladen prevalence (delta-method interval); labelled units are those the ' +
  'criterion labels, unlabelled those only the judge labels; units are treated as independent, as in ppi_py'

/** The quantity a field estimates: a share of one outcome (binary) or a mean. */
interface Quantity {
  description: string
  binary: boolean
  of: (value: Value) => number | null
}

function quantityOf(field: FieldSpec): Quantity | null {
  const categories = field.categories ?? []
  if (categories.length === 2 && categories.every((c) => typeof c === 'boolean')) {
    return { description: `share of ${field.name} = true`, binary: true, of: (v) => (typeof v === 'boolean' ? (v ? 1 : 0) : null) }
  }
  if (field.name === 'origin_verdict') {
    return { description: 'share of pairs where the AI proposal is better', binary: true, of: (v) => (typeof v === 'string' ? (v.startsWith('ai_') ? 1 : 0) : null) }
  }
  if (categories.length === 2) {
    const positive = categories[1] as Value
    return { description: `share of ${field.name} = ${String(positive)}`, binary: true, of: (v) => (valueKey(v) === valueKey(positive) ? 1 : 0) }
  }
  const numericScale = categories.length > 0 && categories.every((c) => typeof c === 'number')
  if (field.level === 'interval' || field.level === 'ratio' || field.level === 'probability' || (field.level === 'ordinal' && numericScale)) {
    return { description: `mean of ${field.name}`, binary: false, of: (v) => (typeof v === 'number' ? v : null) }
  }
  return null
}

/**
 * For every judge, criterion and field with a share or mean to estimate: the human-only and judge-only estimates
 * beside PPI (λ = 1) and PPI++ (tuned λ), and for binary quantities the Rogan–Gladen correction. Rows exist only where
 * the judge labels at least one unit the criterion does not (otherwise the human mean is the estimate); the section
 * is null when there is no such row.
 */
export function estimatesSection(input: AuditInput, level: number): EstimatesSection | null {
  const resolved = resolveInput(input)
  const judges = [...resolved.sources.values()].filter((s) => JUDGE_KINDS.has(s.input.kind))
  const rows: EstimateRow[] = []
  for (const field of resolved.fields) {
    const quantity = quantityOf(field)
    if (!quantity) continue
    for (const criterion of resolved.criteria) {
      const truth = criterion.values.get(field.name)
      if (!truth || truth.size === 0) continue
      for (const judge of judges) {
        const judged = judge.values.get(field.name)
        if (!judged || judged.size === 0) continue
        const Y: number[] = [], F: number[] = [], U: number[] = []
        for (const [key, v] of judged) {
          const f = quantity.of(v)
          if (f === null) continue
          const t = truth.get(key)
          const y = t === undefined ? null : quantity.of(t)
          if (y === null) U.push(f)
          else {
            Y.push(y)
            F.push(f)
          }
        }
        if (U.length === 0 || Y.length === 0) continue
        rows.push({
          source: judge.id,
          criterion: criterion.id,
          field: field.name,
          quantity: quantity.description,
          binary: quantity.binary,
          n_labelled: Y.length,
          n_unlabelled: U.length,
          human_only: meanRow(classicalMean(Y, level)),
          judge_only: meanRow(classicalMean([...F, ...U], level)),
          ppi: ppiRow(ppiMean(Y, F, U, { lambda: 'classic', level })),
          ppi_plus_plus: ppiRow(ppiMean(Y, F, U, { lambda: 'tuned', level })),
          ...(quantity.binary ? { rogan_gladen: roganGladenRow(Y, F, U, level) } : {})
        })
      }
    }
  }
  return rows.length ? { level, method: ESTIMATES_METHOD, rows } : null
}

function meanRow(m: MeanEstimate): EstimateRow['human_only'] {
  return { value: m.value, se: m.se, ci_low: m.lower, ci_high: m.upper, n: m.n, ...(m.reason ? { reason: m.reason } : {}) }
}

function ppiRow(m: PpiMean): EstimateRow['ppi'] {
  return { value: m.value, se: m.se, ci_low: m.lower, ci_high: m.upper, n: m.n + m.N, lambda: m.lambda, ...(m.reason ? { reason: m.reason } : {}) }
}

function roganGladenRow(Y: readonly number[], F: readonly number[], U: readonly number[], level: number): NonNullable<EstimateRow['rogan_gladen']> {
  const positives = Y.filter((y) => y === 1).length
  const negatives = Y.length - positives
  const r = roganGladen(
    {
      judgedPositive: U.filter((f) => f === 1).length,
      judged: U.length,
      truePositives: Y.filter((y, i) => y === 1 && F[i] === 1).length,
      humanPositives: positives,
      trueNegatives: Y.filter((y, i) => y === 0 && F[i] === 0).length,
      humanNegatives: negatives
    },
    level
  )
  return {
    value: r.value,
    unclipped: r.unclipped,
    se: r.se,
    ci_low: r.lower,
    ci_high: r.upper,
    positive_rate: r.positiveRate,
    sensitivity: r.sensitivity,
    specificity: r.specificity,
    n_judged: U.length,
    n_labelled_positive: positives,
    n_labelled_negative: negatives,
    method: r.method,
    ...(r.reason ? { reason: r.reason } : {})
  }
}
