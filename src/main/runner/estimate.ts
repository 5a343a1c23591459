import type { AnswerFormat } from '../../shared/templates'
import type { ReasoningEffort } from '../providers/types'
import type { Db } from '../store/database'
import { cacheLookup } from '../store/model-calls'
import type { Judge } from './judges'
import type { Plan } from './plan'
import { priceFor, type PriceMatch } from './prices'

/** Rough prompt tokens: about four characters a token in English prose. */
export const CHARS_PER_TOKEN = 4

/** Answer tokens assumed per call when the judge sets no limit: a JSON answer with reasons, a grader's working. */
export const ASSUMED_OUTPUT_TOKENS: Record<AnswerFormat, number> = {
  json: 1500,
  'json-block': 600,
  'verdict-line': 2000,
  letter: 20,
  text: 2000
}

/** Reasoning tokens assumed on top of the answer, billed as output. */
export const ASSUMED_REASONING_TOKENS: Record<ReasoningEffort, number> = { minimal: 0, low: 1024, medium: 4096, high: 16384 }

export interface Estimate {
  items: number
  skipped: number
  calls: number
  /** Calls whose answer is in the project's cache already: they cost nothing and send nothing. */
  cached: number
  toSend: number
  inputTokens: number
  outputTokens: number
  /** Null when the model has no price in the project's table nor in the defaults. */
  costUsd: number | null
  price: PriceMatch | null
  batch: boolean
}

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN)
}

/** The dry run: what a plan would send and cost, before anything is sent. */
export function estimatePlan(db: Db, judge: Judge, plan: Plan, batch: boolean): Estimate {
  const price = priceFor(db, judge.provider, judge.model) ?? null
  const reasoning = judge.options.reasoningEffort ? ASSUMED_REASONING_TOKENS[judge.options.reasoningEffort] : 0
  const lookup = cacheLookup(db)
  let cached = 0
  let inputTokens = 0
  let outputTokens = 0
  for (const call of plan.calls) {
    if (lookup(call.hash)) {
      cached++
      continue
    }
    inputTokens += estimateTokens(`${call.prompt.system ?? ''}${call.prompt.user}`)
    outputTokens += (judge.options.maxTokens ?? ASSUMED_OUTPUT_TOKENS[call.prompt.format]) + reasoning
  }
  const full = price ? (inputTokens * price.inputPerMtok + outputTokens * price.outputPerMtok) / 1_000_000 : null
  return {
    items: plan.items,
    skipped: plan.skipped.length,
    calls: plan.calls.length,
    cached,
    toSend: plan.calls.length - cached,
    inputTokens,
    outputTokens,
    costUsd: full === null || !price ? null : batch ? full * (1 - price.batchDiscount) : full,
    price,
    batch
  }
}
