// IdeaEval's rules around a pair of proposals, other than the display order (display.ts).

export const CITATION_MIN_ABS_GAP = 4
export const CITATION_MIN_LOG_GAP = 0.5

/**
 * The citation pair filter: keep a pair when |ca - cb| >= 4 and |ln(1+ca) - ln(1+cb)| >= 0.5. The second condition
 * drops pairs like 40 vs 44 whose relative gap is small.
 */
export function citationPairPasses(ca: number, cb: number): boolean {
  for (const c of [ca, cb]) {
    if (!Number.isFinite(c) || c < 0) throw new RangeError(`a citation count is a non-negative number, got ${c}`)
  }
  return Math.abs(ca - cb) >= CITATION_MIN_ABS_GAP && Math.abs(Math.log1p(ca) - Math.log1p(cb)) >= CITATION_MIN_LOG_GAP
}

const FENCE = /^ {0,3}(```|~~~)/
const ATX_H1 = /^ {0,3}#(?:[ \t]|$)/

/**
 * Removes the first Markdown H1 (an ATX "# Title" line outside fenced code) so the title does not reach the judge.
 * When the heading opens the document, the blank lines after it go too. Text without an H1 is returned unchanged.
 */
export function removeFirstH1(markdown: string): string {
  const lines = markdown.split('\n')
  let fence: string | null = null
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    const fenceMark = FENCE.exec(line)?.[1]
    if (fenceMark !== undefined) {
      if (fence === null) fence = fenceMark
      else if (fence === fenceMark) fence = null
      continue
    }
    if (fence !== null || !ATX_H1.test(line)) continue
    const before = lines.slice(0, i)
    let after = i + 1
    if (before.every((l) => l.trim() === '')) {
      while (after < lines.length && (lines[after] ?? '').trim() === '') after++
      return lines.slice(after).join('\n')
    }
    return [...before, ...lines.slice(after)].join('\n')
  }
  return markdown
}
