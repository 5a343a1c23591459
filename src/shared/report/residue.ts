/**
 * Floating-point residues: a difference of equal sums can come out as 4.8e-16 instead of 0. Values within this
 * distance of a whole number are snapped to it, so that a reader never sees a residue as if it had been measured.
 */
const RESIDUE = 1e-12

export function roundResidue(x: number): number {
  const whole = Math.round(x)
  return Math.abs(x - whole) < RESIDUE ? whole : x
}

/** p-values are genuinely tiny numbers, never residues. */
const P_VALUE = /(^|_)p$|_p_|mid_p/

/** Snaps every residue in a JSON-like value in place (numbers in objects and arrays, recursively). */
export function roundResidues<T>(value: T): T {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i]
      if (typeof v === 'number') value[i] = roundResidue(v)
      else if (v !== null && typeof v === 'object') roundResidues(v)
    }
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>
    for (const key of Object.keys(record)) {
      const v = record[key]
      if (typeof v === 'number') {
        if (!P_VALUE.test(key)) record[key] = roundResidue(v)
      }
      else if (v !== null && typeof v === 'object') roundResidues(v)
    }
  }
  return value
}
