import { failed, parsed, type ParseResult } from './result'

// FrontierScience graders end with "VERDICT: CORRECT|INCORRECT" or "VERDICT: <points>". The last line that starts
// with VERDICT decides, after Markdown emphasis and quoting marks around it are stripped.

const VERDICT_LINE = /^[\s>*_`#-]*VERDICT\s*:\s*(.*)$/i

function cleanValue(raw: string): string {
  return raw
    .trim()
    .replace(/^[*_`"']+|[*_`"']+$/g, '')
    .trim()
    .replace(/\.$/, '')
    .trim()
}

/** The value of the last VERDICT line, as written. */
export function parseVerdictLine(text: string): ParseResult<string> {
  if (typeof text !== 'string') return failed('the answer is not text')
  const lines = text.split(/\r?\n/)
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = VERDICT_LINE.exec(lines[i] ?? '')
    if (m) {
      const value = cleanValue(m[1] ?? '')
      return value === '' ? failed('the VERDICT line has no value') : parsed(value)
    }
  }
  return failed('no VERDICT line in the answer')
}

export type CorrectnessVerdict = 'CORRECT' | 'INCORRECT'

/** Olympiad grader: "VERDICT: CORRECT" or "VERDICT: INCORRECT". */
export function parseCorrectnessVerdict(text: string): ParseResult<CorrectnessVerdict> {
  const line = parseVerdictLine(text)
  if (!line.ok) return line
  const value = line.value.toUpperCase()
  if (value === 'CORRECT' || value === 'INCORRECT') return parsed(value)
  return failed(`the VERDICT is neither CORRECT nor INCORRECT: ${JSON.stringify(line.value)}`)
}

const POINTS = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/

/** Research grader: "VERDICT: <total_points>", a decimal allowed. Range checks belong to the instrument schema. */
export function parsePointsVerdict(text: string): ParseResult<number> {
  const line = parseVerdictLine(text)
  if (!line.ok) return line
  if (!POINTS.test(line.value)) return failed(`the VERDICT is not a number of points: ${JSON.stringify(line.value)}`)
  return parsed(Number(line.value))
}
