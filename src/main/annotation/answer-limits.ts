import { answerLimitsSchema, type AnswerLimits } from '../../shared/contract/limits-operations'
import { AssayError, type ErrorLocation } from '../../shared/errors'
import { getMeta, setMeta } from '../store/meta'
import type { Db, WritableDB } from '../store/database'
import type { SessionState } from '../session'

// The caps' schema and defaults are the contract's, so every front door takes the same ones.
export { answerLimitsSchema, type AnswerLimits } from '../../shared/contract/limits-operations'

export const ANSWER_LIMITS_META_KEY = 'answer_limits'

export function readAnswerLimits(db: Db): AnswerLimits {
  const raw = getMeta(db, ANSWER_LIMITS_META_KEY)
  if (raw === undefined) return answerLimitsSchema.parse({})
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    throw new AssayError('bad_data', `The project's ${ANSWER_LIMITS_META_KEY} setting is not valid JSON`, [{ field: `meta.${ANSWER_LIMITS_META_KEY}`, message: 'not JSON' }])
  }
  const parsed = answerLimitsSchema.safeParse(value)
  if (!parsed.success) {
    throw new AssayError(
      'bad_data',
      `The project's ${ANSWER_LIMITS_META_KEY} setting is invalid`,
      parsed.error.issues.map((i) => ({ field: ['meta', ANSWER_LIMITS_META_KEY, ...i.path.map(String)].join('.'), message: i.message }))
    )
  }
  return parsed.data
}

/** Stores limits for the project (missing keys take their defaults); the caller holds the write transaction. */
export function writeAnswerLimits(db: WritableDB, limits: Partial<AnswerLimits>): AnswerLimits {
  const full = answerLimitsSchema.parse(limits)
  setMeta(db, ANSWER_LIMITS_META_KEY, JSON.stringify(full))
  return full
}

/** Refuses an answer larger than the project allows, naming every text field over its cap. */
export function checkAnswerSize(judgement: unknown, limits: AnswerLimits): void {
  const over: ErrorLocation[] = []
  visitStrings(judgement, '', (path, s) => {
    if (s.length > limits.text_chars) over.push({ field: path || '(answer)', message: `${s.length} characters; at most ${limits.text_chars}` })
  })
  if (over.length) {
    throw new AssayError('too_large', `Too long: ${over.map((o) => o.field).join(', ')} (at most ${limits.text_chars} characters per field)`, over)
  }
  const bytes = Buffer.byteLength(JSON.stringify(judgement ?? null), 'utf8')
  if (bytes > limits.judgement_bytes) {
    throw new AssayError('too_large', `The answer is ${bytes} bytes; at most ${limits.judgement_bytes} are allowed in one answer`, [
      { field: '(answer)', message: `${bytes} bytes; at most ${limits.judgement_bytes}` }
    ])
  }
}

function visitStrings(value: unknown, path: string, visit: (path: string, s: string) => void): void {
  if (typeof value === 'string') return visit(path, value)
  if (Array.isArray(value)) return value.forEach((v, i) => visitStrings(v, path ? `${path}.${i}` : String(i), visit))
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) visitStrings(v, path ? `${path}.${k}` : k, visit)
  }
}

interface Bucket {
  tokens: number
  at: number
}
// Keyed by the session object itself: a desktop window or a browser-mode server has one for its lifetime.
const buckets = new WeakMap<SessionState, Bucket>()

/**
 * Token bucket per session: `submissions_burst` at once, then `submissions_per_minute`. Takes one token or refuses
 * with `rate_limited`, saying when to retry; a refused submission writes nothing.
 */
export function takeSubmissionToken(session: SessionState, limits: AnswerLimits, now = Date.now()): void {
  const perMs = limits.submissions_per_minute / 60_000
  const b = buckets.get(session) ?? { tokens: limits.submissions_burst, at: now }
  b.tokens = Math.min(limits.submissions_burst, b.tokens + (now - b.at) * perMs)
  b.at = now
  buckets.set(session, b)
  if (b.tokens < 1) {
    const waitS = Math.ceil((1 - b.tokens) / perMs / 1000)
    throw new AssayError('rate_limited', `Too many submissions in a short time; try again in ${waitS} s`)
  }
  b.tokens -= 1
}
