import type { AnswerFormat } from '../templates/manifest'
import { parseJsonObject } from './json'
import { parseLetterAnswer } from './letter'
import { failed, parsed, type ParseResult } from './result'
import { parseVerdictLine } from './verdict'

// One entry point by answer format (the template manifest's answerFormat), for runners that handle any template.
// A verdict line comes back as its raw value; the grader's instrument reads it as CORRECT/INCORRECT or points.

export function parseAnswer(format: AnswerFormat, text: string): ParseResult<unknown> {
  switch (format) {
    case 'json':
    case 'json-block':
      return parseJsonObject(text, { prefer: 'last' })
    case 'verdict-line':
      return parseVerdictLine(text)
    case 'letter':
      return parseLetterAnswer(text)
    case 'text':
      return typeof text === 'string' && text.trim() !== '' ? parsed(text.trim()) : failed('empty answer')
  }
}
