import type { Db, WritableDB } from '../store/database'
import type { ProviderKind } from '../providers/types'
import { insertMissingPrices, priceRows, priceRowsOf, upsertPrice, type PriceRow } from '../store/prices'

/** US dollars per million tokens. */
export interface Price {
  provider: string
  model: string
  inputPerMtok: number
  outputPerMtok: number
  /** Share taken off by the provider's batch API (0.5 = half price). */
  batchDiscount: number
}

export interface PriceMatch extends Price {
  /** `project`: a row of the project's price table; `default`: Assay's list below. */
  source: 'project' | 'default'
}

/**
 * List prices of common models, written into a project's price table the first time it runs anything and editable
 * there. Dated snapshots (`gpt-4.1-2025-04-14`, `claude-sonnet-4-5-20250929`) take the price of their base name.
 */
export const DEFAULT_PRICES: readonly Price[] = [
  p('openai', 'gpt-5', 1.25, 10),
  p('openai', 'gpt-5-mini', 0.25, 2),
  p('openai', 'gpt-5-nano', 0.05, 0.4),
  p('openai', 'gpt-4.1', 2, 8),
  p('openai', 'gpt-4.1-mini', 0.4, 1.6),
  p('openai', 'gpt-4.1-nano', 0.1, 0.4),
  p('openai', 'gpt-4o', 2.5, 10),
  p('openai', 'gpt-4o-mini', 0.15, 0.6),
  p('openai', 'o3', 2, 8),
  p('openai', 'o4-mini', 1.1, 4.4),
  p('anthropic', 'claude-opus-4-1', 15, 75),
  p('anthropic', 'claude-opus-4-5', 5, 25),
  p('anthropic', 'claude-sonnet-4-5', 3, 15),
  p('anthropic', 'claude-sonnet-4', 3, 15),
  p('anthropic', 'claude-haiku-4-5', 1, 5),
  p('anthropic', 'claude-3-5-haiku', 0.8, 4),
  p('google', 'gemini-2.5-pro', 1.25, 10),
  p('google', 'gemini-2.5-flash', 0.3, 2.5),
  p('google', 'gemini-2.5-flash-lite', 0.1, 0.4),
  p('google', 'gemini-2.0-flash', 0.1, 0.4),
  p('openai-compatible', 'grok-4', 3, 15),
  p('openai-compatible', 'grok-3-mini', 0.3, 0.5)
]

function p(provider: ProviderKind, model: string, inputPerMtok: number, outputPerMtok: number): Price {
  return { provider, model, inputPerMtok, outputPerMtok, batchDiscount: 0.5 }
}

function fromRow(r: PriceRow): Price {
  return { provider: r.provider, model: r.model, inputPerMtok: r.input_per_mtok, outputPerMtok: r.output_per_mtok, batchDiscount: r.batch_discount }
}

/** The listed model a model name is priced as: itself, else the longest listed name it starts with (`name-…`). */
export function bestPrice<T extends { provider: string; model: string }>(list: readonly T[], provider: string, model: string): T | undefined {
  const name = model.trim().toLowerCase().replace(/^models\//, '')
  let best: T | undefined
  for (const price of list) {
    if (price.provider !== provider) continue
    const listed = price.model.toLowerCase()
    if (listed === name) return price
    if (name.startsWith(`${listed}-`) && (!best || listed.length > best.model.length)) best = price
  }
  return best
}

/** The price of a model: the project's table first, then the defaults; undefined when neither lists it. */
export function priceFor(db: Db, provider: string, model: string): PriceMatch | undefined {
  const rows = priceRowsOf(db, provider).map(fromRow)
  const own = bestPrice(rows, provider, model)
  if (own) return { ...own, source: 'project' }
  const fallback = bestPrice(DEFAULT_PRICES, provider, model)
  return fallback ? { ...fallback, source: 'default' } : undefined
}

/** Writes the default list into the project's table, keeping every row the curator has set. */
export function seedDefaultPrices(db: WritableDB): void {
  insertMissingPrices(db, DEFAULT_PRICES)
}

export function listPrices(db: Db): Price[] {
  return priceRows(db).map(fromRow)
}

export function setPrice(db: WritableDB, price: Price): void {
  upsertPrice(db, price)
}

/** Dollars for a call's tokens; null when the price or a token count is unknown. */
export function costOf(price: Price | undefined, inputTokens: number | null, outputTokens: number | null, batch: boolean): number | null {
  if (!price || inputTokens === null || outputTokens === null) return null
  const full = (inputTokens * price.inputPerMtok + outputTokens * price.outputPerMtok) / 1_000_000
  return batch ? full * (1 - price.batchDiscount) : full
}
