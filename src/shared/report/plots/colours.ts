/**
 * One colour per source across every plot and table of a report. The colour is derived from the source's own key
 * (its run number, or a hash of its id), never from its position in a list, so a source keeps its colour when
 * others are filtered out, archived, or added later. Judges get distinct hues (Okabe–Ito, then two of Paul Tol's
 * muted set, all readable on white); people and criteria get greys, since they are the yardstick, not the subject.
 */

export const JUDGE_COLOURS = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#882255', '#44AA99'] as const
export const PEOPLE_COLOURS = ['#3b3f43', '#5c6166', '#6e6259', '#7d8287', '#a4a8ac', '#8f8273'] as const

/** FNV-1a over the UTF-16 code units: small, stable everywhere, good enough to spread ids over a palette. */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

/**
 * Numbered sources (runs, pseudonyms such as A01) take their number: consecutive runs get consecutive hues, so the
 * first eight runs of a project never share one. Other ids are hashed.
 */
function slot(id: string, size: number): number {
  const numbered = /(\d+)$/.exec(id)
  if (numbered) return (Number(numbered[1]) + size - 1) % size
  return hash(id) % size
}

/** The criteria every report may hold keep fixed shades; annotators and reference imports share the rest. */
const FIXED: Readonly<Record<string, string>> = { 'human-majority': '#3b3f43', adjudicated: '#5c6166', label: '#6e6259' }
const OTHER_PEOPLE = ['#7d8287', '#a4a8ac', '#8f8273'] as const

export function sourceColour(id: string, role: 'criterion' | 'judge' | 'human' | string | undefined): string {
  if (role === 'judge') return JUDGE_COLOURS[slot(id, JUDGE_COLOURS.length)] as string
  const fixed = FIXED[id] ?? (id.startsWith('label:') ? FIXED.label : undefined)
  return fixed ?? (OTHER_PEOPLE[slot(id, OTHER_PEOPLE.length)] as string)
}
