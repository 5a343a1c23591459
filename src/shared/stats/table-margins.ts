/** Totals of a square count table: grand total, row sums, column sums. */
export function tableMargins(table: readonly (readonly number[])[]): { total: number; rows: number[]; columns: number[] } {
  const rows = table.map((row) => row.reduce((sum, cell) => sum + cell, 0))
  const columns = table.map((_, j) => table.reduce((sum, row) => sum + (row[j] ?? 0), 0))
  const total = rows.reduce((sum, value) => sum + value, 0)
  return { total, rows, columns }
}

/** Chance agreement at or within rounding of 1 leaves a zero denominator in every kappa-type coefficient. */
export const CHANCE_AGREEMENT_TOLERANCE = 1e-12
