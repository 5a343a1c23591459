import Papa from 'papaparse'

export type ExportFormat = 'jsonl' | 'csv'

/**
 * Flattens a judgement into CSV cells: nested objects become dotted columns (`test.intervention`), lists are
 * written as JSON, null as `null`. The labels importer reads this back (label-columns.ts).
 */
export function flattenForCsv(value: Record<string, unknown>, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  for (const [k, v] of Object.entries(value)) {
    const key = prefix ? `${prefix}.${k}` : k
    if (v === undefined) continue
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) flattenForCsv(v as Record<string, unknown>, key, out)
    else out[key] = cellText(v)
  }
  return out
}

function cellText(v: unknown): string {
  if (v === null) return 'null'
  if (typeof v === 'string') return v
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  return JSON.stringify(v)
}

/** Column order: the given leading columns, then every other column in order of first appearance. */
export function columnsOf(rows: ReadonlyArray<Record<string, string>>, leading: ReadonlyArray<string>): string[] {
  const columns = [...leading]
  const seen = new Set(columns)
  for (const r of rows) {
    for (const k of Object.keys(r)) {
      if (seen.has(k)) continue
      seen.add(k)
      columns.push(k)
    }
  }
  return columns
}

/**
 * Cells a spreadsheet would run as a formula (leading `=`, `+`, `-`, `@`, tab, CR) get a leading `'`. Plain numbers
 * (`-0.5`) are left alone, and a cell already starting with quotes before such a character gets one more, so the
 * escape is reversible: the labels importer removes exactly one (unescapeFormulaCell).
 */
export const FORMULA_CELL = /^(?![-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$)'*[=+\-@\t\r]/

/** Reverses the export's formula escape: `'=x` → `=x`, `''=x` → `'=x`; anything else unchanged. */
export function unescapeFormulaCell(cell: string): string {
  return cell.startsWith("'") && FORMULA_CELL.test(cell) ? cell.slice(1) : cell
}

/** CSV text; formula-leading cells escaped unless `rawCells`. */
export function toCsv(rows: ReadonlyArray<Record<string, string>>, leading: ReadonlyArray<string>, rawCells = false): string {
  const columns = columnsOf(rows, leading)
  return (
    Papa.unparse({ fields: columns, data: rows.map((r) => columns.map((c) => r[c] ?? '')) }, { newline: '\n', escapeFormulae: rawCells ? false : FORMULA_CELL }) + '\n'
  )
}

export function toJsonl(rows: ReadonlyArray<unknown>): string {
  return rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : '')
}

/** `labels.jsonl` → `labels.card.md`, beside the export. */
export function cardPathFor(out: string): string {
  const base = out.replace(/\.(jsonl|csv|json|tsv)$/i, '')
  return `${base}.card.md`
}
