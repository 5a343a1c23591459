import type { FieldSpec } from './types'

/** The field a field is read from (passed: total), where it is one of `fields` (see FieldSpec.derivedFrom). */
export function numberFieldOf(field: FieldSpec, fields: ReadonlyArray<FieldSpec>): FieldSpec | undefined {
  const from = field.derivedFrom?.field
  return from === undefined ? undefined : fields.find((f) => f.name === from)
}

/**
 * A pass read from points (FieldSpec.derivedFrom): whether a number is at or above its bound, allowing for the
 * rounding of a mean of tenths (1.7, 9.6 and 9.7 average to 6.999… in one order of adding and to 7 in another), so the
 * report's majority and the exported one, which add answers in different orders, read the same pass.
 */
export function atOrAbove(value: number, bound: number): boolean {
  return value >= bound - 1e-9 * Math.max(1, Math.abs(bound))
}
