import type { RubricItem } from '../../shared/items/kinds'

/**
 * FrontierScience research rubrics: blocks `Points: <number>, Item: <text>`, each starting a line; the item text
 * runs to the next block and may span many lines (sub-point breakdowns stay inside their item). Tolerated
 * variants: any case, Markdown emphasis around the labels, "pts"/"points" after the number, and a comma,
 * semicolon or nothing between number and `Item`.
 */
const BLOCK = /^[ \t]*[*_]{0,2}points?[*_]{0,2}[ \t]*:[ \t]*[*_]{0,2}[ \t]*(\d+(?:\.\d+)?|\.\d+)[ \t]*(?:pts?\.?|points?)?[ \t]*[*_]{0,2}[ \t]*[,;]?[ \t]*[*_]{0,2}item[*_]{0,2}[ \t]*:[ \t]*[*_]{0,2}/gim

export interface ParsedRubric {
  items: RubricItem[]
  total: number
  /** Text before the first block (kept in the answer, not part of any item). */
  preamble: string
}

/** Null when the text has no rubric block at all. */
export function parseRubric(text: string): ParsedRubric | null {
  const matches = [...text.matchAll(BLOCK)]
  if (matches.length === 0) return null
  const items: RubricItem[] = matches.map((m, k) => {
    const start = m.index + m[0].length
    const end = matches[k + 1]?.index ?? text.length
    return { points: Number(m[1]), item: text.slice(start, end).trim() }
  })
  // Summing in thousandths keeps 0.125-point items exact (0.1 + 0.2 style drift would fail a total check).
  const total = items.reduce((s, it) => s + Math.round(it.points * 1000), 0) / 1000
  return { items, total, preamble: text.slice(0, matches[0]!.index).trim() }
}

/** True when the answer looks like a research rubric (decides the track of a row that does not say). */
export function looksLikeRubric(text: string): boolean {
  BLOCK.lastIndex = 0
  const found = BLOCK.test(text)
  BLOCK.lastIndex = 0
  return found
}

export const RUBRIC_TOTAL = 10
