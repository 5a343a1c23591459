/** Guards for caller mistakes. These throw: a malformed input is a bug, not an undefined statistic. */

export function assertSameLength(a: ArrayLike<unknown>, b: ArrayLike<unknown>, what: string): void {
  if (a.length !== b.length) {
    throw new RangeError(`${what}: the two sources must rate the same items (lengths ${a.length} and ${b.length})`)
  }
}

export function assertFiniteNumbers(values: readonly number[], what: string): void {
  values.forEach((value, index) => {
    if (!Number.isFinite(value)) throw new RangeError(`${what}: value at ${index} is not a finite number (${value})`)
  })
}

export function assertProbabilities(values: readonly number[], what: string): void {
  values.forEach((value, index) => {
    if (!(value >= 0 && value <= 1)) throw new RangeError(`${what}: probability at ${index} is outside [0, 1] (${value})`)
  })
}

/** Outcomes of a binary event, as 0/1 or false/true; returns them as 0/1. */
export function binaryOutcomes(values: readonly (number | boolean)[], what: string): number[] {
  return values.map((value, index) => {
    if (value === true || value === 1) return 1
    if (value === false || value === 0) return 0
    throw new RangeError(`${what}: outcome at ${index} must be 0/1 or a boolean (${String(value)})`)
  })
}

export function assertCountTable(table: readonly (readonly number[])[], what: string): void {
  const size = table.length
  table.forEach((row, i) => {
    if (row.length !== size) throw new RangeError(`${what}: the table must be square (row ${i} has ${row.length} cells, expected ${size})`)
    row.forEach((cell, j) => {
      if (!(Number.isFinite(cell) && cell >= 0)) throw new RangeError(`${what}: cell [${i}][${j}] must be a non-negative count (${cell})`)
    })
  })
}

export function assertNonNegativeInteger(value: number, what: string): void {
  if (!(Number.isInteger(value) && value >= 0)) throw new RangeError(`${what} must be a non-negative integer (${value})`)
}

export function assertLevel(level: number): void {
  if (!(level > 0 && level < 1)) throw new RangeError(`confidence level must lie strictly between 0 and 1 (${level})`)
}
