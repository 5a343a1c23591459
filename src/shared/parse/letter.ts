import { failed, parsed, type ParseResult } from './result'

// A one-letter answer (LiveIdeaBench similarity: "ONLY ANSWER A/B/C/D"). Accepted: the letter alone, with brackets
// or a period, followed by the option's text, or after "Answer:"; Markdown emphasis is ignored. Only capitals count,
// so the article "a" is never read as an answer. An answer naming two letters is refused.

const SHAPES = [
  /^[([]?([A-Z])[)\].:]?$/,
  /^[([]?([A-Z])[)\].:]\s+\S/,
  /^([A-Z])\s+[-–—]\s+\S/,
  /^(?:the\s+)?(?:final\s+)?answer(?:\s+is)?\s*[:：]?\s*[([]?([A-Z])[)\].]?(?:\s|$)/i
]

function letterOf(line: string, allowed: ReadonlySet<string>): string | undefined {
  for (const shape of SHAPES) {
    const letter = shape.exec(line)?.[1]
    if (letter !== undefined && allowed.has(letter)) return letter
  }
  return undefined
}

export function parseLetterAnswer(text: string, letters: readonly string[] = ['A', 'B', 'C', 'D']): ParseResult<string> {
  if (typeof text !== 'string') return failed('the answer is not text')
  const allowed = new Set(letters)
  const lines = text
    .replace(/[*_`#]/g, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
  if (lines.length === 0) return failed('empty answer')
  const found = new Set<string>()
  for (const line of lines) {
    const letter = letterOf(line, allowed)
    if (letter !== undefined) found.add(letter)
  }
  if (found.size === 1) return parsed([...found][0] as string)
  if (found.size > 1) return failed(`the answer names several letters: ${[...found].join(', ')}`)
  return failed(`no answer letter (${letters.join('/')}) in the answer`)
}
