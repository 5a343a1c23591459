/** Pieces of the plain-text report. */

export type Name = (id: string) => string

/** A section's heading, with what its figures count under it. */
export function heading(title: string, note?: string): string[] {
  return ['', `== ${title} ==`, ...(note ? [note] : [])]
}

/** A table in columns: the first `left` left-aligned (names), the rest right-aligned (numbers). */
export function grid(head: string[], rows: string[][], left = 2): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (r: string[]) =>
    r
      .map((c, i) => (i < left ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number)))
      .join('  ')
      .trimEnd()
  return [line(head), ...rows.map(line)].join('\n')
}
