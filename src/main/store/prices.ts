import type { Db, WritableDB } from './database'

// The `prices` table: the project's own price per model, in dollars per million tokens.

export interface PriceRow {
  provider: string
  model: string
  input_per_mtok: number
  output_per_mtok: number
  batch_discount: number
}

export interface PriceValues {
  provider: string
  model: string
  inputPerMtok: number
  outputPerMtok: number
  batchDiscount: number
}

export function priceRowsOf(db: Db, provider: string): PriceRow[] {
  return db.prepare(`SELECT * FROM prices WHERE provider = ?`).all(provider) as PriceRow[]
}

export function priceRows(db: Db): PriceRow[] {
  return db.prepare(`SELECT * FROM prices ORDER BY provider, model`).all() as PriceRow[]
}

/** Adds the prices the table does not have yet, keeping every row it has. */
export function insertMissingPrices(db: WritableDB, prices: ReadonlyArray<PriceValues>): void {
  const insert = db.prepare(`INSERT OR IGNORE INTO prices (provider, model, input_per_mtok, output_per_mtok, batch_discount) VALUES (?, ?, ?, ?, ?)`)
  for (const price of prices) insert.run(price.provider, price.model, price.inputPerMtok, price.outputPerMtok, price.batchDiscount)
}

export function upsertPrice(db: WritableDB, price: PriceValues): void {
  db.prepare(
    `INSERT INTO prices (provider, model, input_per_mtok, output_per_mtok, batch_discount) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (provider, model) DO UPDATE SET input_per_mtok = excluded.input_per_mtok,
       output_per_mtok = excluded.output_per_mtok, batch_discount = excluded.batch_discount`
  ).run(price.provider, price.model, price.inputPerMtok, price.outputPerMtok, price.batchDiscount)
}
