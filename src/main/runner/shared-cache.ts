import type { ModelResponse } from '../providers/types'
import type { Db } from '../store/database'
import { cacheLookup, cachedAnswersOf, type CachedAnswer } from '../store/model-calls'

// Which requests are paid for, as seen by the executions of this process. An execution reads the cache rows of all
// its requests in one query when it starts; after that it asks the database per call only when another execution
// has been active beside it (which may have written rows since), or for a request it makes more than once. Requests
// on their way, or answered and not yet committed, are registered here, so an identical request waits for that
// answer instead of being sent again.

interface ExecutionState {
  shared: boolean
}

const executions = new Set<ExecutionState>()
const pending = new Map<string, Promise<ModelResponse | null>>()

export interface CacheView {
  /** The paid answer of a request hash, if the project has one. */
  lookup(hash: string): CachedAnswer | undefined
  /** The answer of an identical request on its way (null if it fails), or undefined when there is none. */
  waitFor(hash: string): Promise<ModelResponse | null> | undefined
  /** Registers this request as on its way; `settle` gives the answer, `committed` ends the registration. */
  claim(hash: string): { settle(response: ModelResponse | null): void; committed(): void }
  close(): void
}

export function openCacheView(db: Db, hashes: readonly string[]): CacheView {
  const state: ExecutionState = { shared: executions.size > 0 }
  if (state.shared) for (const other of executions) other.shared = true
  executions.add(state)
  const counts = new Map<string, number>()
  for (const h of hashes) counts.set(h, (counts.get(h) ?? 0) + 1)
  const one = cacheLookup(db)
  const known = new Map<string, CachedAnswer>()
  for (const r of cachedAnswersOf(db, [...counts.keys()])) known.set(r.request_hash, fromRow(r))
  return {
    lookup(hash) {
      if (!state.shared && (counts.get(hash) ?? 0) < 2) return known.get(hash)
      return one(hash)
    },
    waitFor: (hash) => pending.get(hash),
    claim(hash) {
      let settle!: (r: ModelResponse | null) => void
      const promise = new Promise<ModelResponse | null>((resolve) => (settle = resolve))
      pending.set(hash, promise)
      const release = () => {
        if (pending.get(hash) === promise) pending.delete(hash)
      }
      return {
        settle(response) {
          settle(response)
          // A failed request leaves nothing to wait for; an answer stays registered until its record is committed.
          if (response === null) release()
        },
        committed: release
      }
    },
    close() {
      executions.delete(state)
    }
  }
}

type CacheRowWithHash = { request_hash?: string; raw_answer: string; input_tokens: number | null; output_tokens: number | null; model_version: string | null }

function fromRow(r: CacheRowWithHash): CachedAnswer {
  return { raw: r.raw_answer, inputTokens: r.input_tokens, outputTokens: r.output_tokens, modelVersion: r.model_version }
}
