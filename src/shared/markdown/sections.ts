// A proposal is seven `## ` sections (Introduction … References). Showing two proposals section by section, in
// rows, keeps the same section of both sides at the same height, so reading across compares like with like.

export interface Section {
  title: string
  body: string
  /** Where the body starts in the whole Markdown, so offsets of the rendered body point into the whole text. */
  offset: number
}

export interface SectionRow {
  /** The heading as written on the left (or the right, where the left lacks it); '' for text before any heading. */
  title: string
  a: Section | null
  b: Section | null
}

export function splitSections(markdown: string): Section[] {
  const sections: Section[] = []
  let current: Section = { title: '', body: '', offset: 0 }
  let inFence = false
  let at = 0
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence
    const heading = inFence ? null : /^##\s+(.+?)\s*#*\s*$/.exec(line)
    at += line.length + 1
    if (heading) {
      sections.push(current)
      current = { title: heading[1]!, body: '', offset: at }
    } else {
      current.body += `${line}\n`
    }
  }
  sections.push(current)
  return sections.filter((s) => s.title !== '' || s.body.trim() !== '')
}

function key(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim()
}

/** Rows of matching sections in the left side's order; a section only one side has gets a row of its own. */
export function alignSections(a: ReadonlyArray<Section>, b: ReadonlyArray<Section>): SectionRow[] {
  const rows: SectionRow[] = []
  const used = new Set<number>()
  let bAt = 0
  for (const left of a) {
    const match = b.findIndex((s, i) => !used.has(i) && i >= 0 && key(s.title) === key(left.title))
    if (match >= 0) {
      // Sections the right side has before this match, and the left lacks, come first.
      for (; bAt < match; bAt++) {
        if (!used.has(bAt) && !a.some((s) => key(s.title) === key(b[bAt]!.title))) {
          used.add(bAt)
          rows.push({ title: b[bAt]!.title, a: null, b: b[bAt]! })
        }
      }
      used.add(match)
      bAt = Math.max(bAt, match + 1)
      rows.push({ title: left.title, a: left, b: b[match]! })
    } else {
      rows.push({ title: left.title, a: left, b: null })
    }
  }
  b.forEach((s, i) => {
    if (!used.has(i)) rows.push({ title: s.title, a: null, b: s })
  })
  return rows
}
