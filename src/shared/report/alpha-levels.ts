import { krippendorffAlpha, observedCategories, type Category, type Estimate, type MeasurementLevel } from '../stats'
import { put } from './intervals'

/**
 * Krippendorff's alpha at a field's declared level and at every lower level that is meaningful for it (an interval
 * field also gets ordinal and nominal alpha), each under one key name wherever it appears:
 * `krippendorff_alpha_<level>`.
 */

const ORDER: readonly MeasurementLevel[] = ['ratio', 'interval', 'ordinal', 'nominal']

/** Above this many distinct values, ordinal and nominal alpha of numbers would treat each value as a category. */
export const MAX_CATEGORIES_FOR_LOWER_ALPHA = 50

export function alphaLevels(declared: string): MeasurementLevel[] {
  const level: MeasurementLevel = declared === 'probability' ? 'interval' : (declared as MeasurementLevel)
  const start = ORDER.indexOf(level)
  return start < 0 ? [] : ORDER.slice(start)
}

export function alphaKey(level: string): string {
  return `krippendorff_alpha_${level === 'probability' ? 'interval' : level}`
}

/** The alpha of a ceiling (or any row) at its declared level, whatever that level is. */
export function declaredAlpha(row: object, level: string): number | null | undefined {
  const v = (row as Record<string, unknown>)[alphaKey(level)]
  return typeof v === 'number' ? v : v === null ? null : undefined
}

/**
 * Writes alpha at every level of `alphaLevels(declared)`. `data` holds observers × units: category positions on the
 * declared scale (`domain`) for nominal and ordinal fields, numbers otherwise.
 */
export function putAlphas(
  out: Record<string, unknown>,
  reasons: Record<string, string>,
  data: readonly (readonly (number | null)[])[],
  declared: string,
  domain?: readonly number[]
): void {
  // Declared categories (a domain) need neither the values seen nor their count, unless ratio alpha checks signs.
  const levels = alphaLevels(declared)
  const seen = domain && !levels.includes('ratio') ? [] : data.flatMap((row) => row.filter((v): v is number => v !== null))
  const distinct = domain ? domain.length : new Set(seen).size
  for (const level of levels) {
    const key = alphaKey(level)
    let estimate: Estimate
    if (level === 'ratio' && seen.some((v) => v < 0)) estimate = { value: null, reason: 'ratio data cannot be negative' }
    else if (!domain && (level === 'ordinal' || level === 'nominal') && distinct > MAX_CATEGORIES_FOR_LOWER_ALPHA) {
      estimate = { value: null, reason: `more than ${MAX_CATEGORIES_FOR_LOWER_ALPHA} distinct values: ${level} alpha would treat each value as a category` }
    } else {
      const scale = domain ?? (level === 'ordinal' || level === 'nominal' ? observedCategories<Category>(seen).map(Number) : undefined)
      estimate = krippendorffAlpha(data, level, scale ? { domain: scale } : {})
    }
    put(out, reasons, key, estimate)
  }
}
