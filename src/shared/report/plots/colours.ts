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

/**
 * The colours of one report's sources: each judge its own hue while the report has no more judges than hues. A judge
 * takes its preferred slot (its number, or its hash) unless a judge listed before it in the report holds that one,
 * then the next free one: a fit numbered 7 and run 7 no longer share a colour. Beyond eight judges hues repeat.
 * Made once per list of sources.
 */
export function reportColours(sources: ReadonlyArray<{ id: string; role: string }>): ReadonlyMap<string, string> {
  const cached = made.get(sources)
  if (cached) return cached
  const colours = new Map<string, string>()
  const taken = new Set<number>()
  for (const s of sources) {
    if (s.role !== 'judge') {
      colours.set(s.id, sourceColour(s.id, s.role))
      continue
    }
    const preferred = slot(s.id, JUDGE_COLOURS.length)
    let chosen = preferred
    if (taken.size < JUDGE_COLOURS.length) {
      while (taken.has(chosen)) chosen = (chosen + 1) % JUDGE_COLOURS.length
      taken.add(chosen)
    }
    colours.set(s.id, JUDGE_COLOURS[chosen] as string)
  }
  made.set(sources, colours)
  return colours
}

const made = new WeakMap<object, ReadonlyMap<string, string>>()

/** A source's colour in its report (see reportColours); an id the report does not list gets its own preferred one. */
export function colourIn(sources: ReadonlyArray<{ id: string; role: string }>, id: string, role?: string): string {
  return reportColours(sources).get(id) ?? sourceColour(id, role)
}
