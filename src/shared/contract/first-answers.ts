import type { Envelope } from './client'

/**
 * Answers the server puts in the page it serves (browser mode), so the window's first calls need no round trip:
 * each is the envelope one call returned, under the call's operation and input.
 */
export interface FirstAnswer {
  key: string
  envelope: Envelope
}

/**
 * A Markdown text of the first item, parsed by the server with the window's own pipeline: its tree (hast) as
 * react-markdown builds it before turning it into elements.
 */
export interface PreparsedMarkdown {
  text: string
  sourceOffset: number
  hast: unknown
}

/** What the page's data block holds. */
export interface FirstPage {
  answers: FirstAnswer[]
  markdown: PreparsedMarkdown[]
}

/** The id of the page's data block that carries them. */
export const FIRST_ANSWERS_ID = 'assay-first-answers'

/** One call, as a key: the operation and its input with the keys in order. */
export function firstAnswerKey(op: string, input: unknown): string {
  return `${op} ${JSON.stringify(sorted(input ?? {}))}`
}

function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted)
  if (v === null || typeof v !== 'object') return v
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sorted((v as Record<string, unknown>)[k])])
  )
}
