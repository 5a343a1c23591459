import type { Envelope } from './client'

/**
 * Answers the server puts in the page it serves (browser mode), so the window's first calls need no round trip:
 * each is the envelope one call returned, under the call's operation and input.
 */
export interface FirstAnswer {
  key: string
  envelope: Envelope
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
