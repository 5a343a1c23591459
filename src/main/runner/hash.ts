import { createHash } from 'node:crypto'
import type { JudgeConfig } from '../providers/types'

/** Raised when what the hash covers changes, so old cache entries are never read with a new meaning. */
export const REQUEST_HASH_VERSION = 1

export interface HashedRequest {
  system?: string | undefined
  user: string
  jsonSchema?: Record<string, unknown> | undefined
  /** Which sample this is: the same request in another trial is another sample, not a cache hit. */
  trial: number
}

/** JSON with object keys sorted, so equal values give equal text whatever order they were built in. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
}

/**
 * The identity of a paid request: everything that can change the answer (provider, model, base URL, sampling and
 * reasoning options, structured output, the rendered messages) and the trial index. The company label does not
 * change an answer and is left out.
 */
export function requestHash(config: JudgeConfig, req: HashedRequest): string {
  // node:crypto rather than the shared pure-JS sha256: the same digest, an order of magnitude faster on long prompts.
  return createHash('sha256')
    .update(
      canonicalJson({
      v: REQUEST_HASH_VERSION,
      provider: config.provider,
      model: config.model,
      baseUrl: config.baseUrl ?? null,
      options: {
        temperature: config.temperature ?? null,
        reasoningEffort: config.reasoningEffort ?? null,
        maxTokens: config.maxTokens ?? null,
        structuredOutput: config.structuredOutput ?? false
      },
      system: req.system ?? null,
      user: req.user,
      jsonSchema: config.structuredOutput ? (req.jsonSchema ?? null) : null,
        trial: req.trial
      }),
      'utf8'
    )
    .digest('hex')
}
