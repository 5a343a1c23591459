import { fitParametersSchema, fitSpecSchema, type FitParameters, type FitSpec, type StoredFit } from '../../shared/calibrate'
import { AssayError } from '../../shared/errors'
import type { Split } from '../../shared/items/kinds'
import { hasTable, type Db, type WritableDB } from './database'

interface FitRow {
  id: number
  spec: string
  parameters: string
  n_fit_units: number
  created_at: string
}

/** Stores a fit and the items it used, in the caller's transaction. */
export function insertFit(db: WritableDB, spec: FitSpec, parameters: FitParameters, fitItems: readonly number[], nFitUnits: number): number {
  const info = db
    .prepare(`INSERT INTO calibration_fits (instrument_id, method, source, spec, parameters, n_fit_units) VALUES (?, ?, ?, ?, ?, ?)`)
    .run(spec.instrument, spec.method, spec.source, JSON.stringify(spec), JSON.stringify(parameters), nFitUnits)
  const id = Number(info.lastInsertRowid)
  const addItem = db.prepare(`INSERT INTO calibration_fit_items (fit_id, item_id) VALUES (?, ?)`)
  for (const item of fitItems) addItem.run(id, item)
  return id
}

/** The fits of an instrument, oldest first. A stored row that no longer parses is an error naming the fit. */
export function listFits(db: Db, instrument: string): StoredFit[] {
  // A file opened read-only before its migration to schema 6 has no fits to show.
  if (!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'calibration_fits'`).get()) return []
  const rows = db.prepare(`SELECT id, spec, parameters, n_fit_units, created_at FROM calibration_fits WHERE instrument_id = ? ORDER BY id`).all(instrument) as FitRow[]
  const items = db.prepare(`SELECT item_id FROM calibration_fit_items WHERE fit_id = ? ORDER BY item_id`)
  const splits = db.prepare(`SELECT i.split, count(*) AS n FROM calibration_fit_items f JOIN items i ON i.id = f.item_id WHERE f.fit_id = ? GROUP BY i.split`)
  const related = relatedItemsQuery(db)
  return rows.map((row) => {
    const spec = fitSpecSchema.safeParse(JSON.parse(row.spec))
    const parameters = fitParametersSchema.safeParse(JSON.parse(row.parameters))
    if (!spec.success || !parameters.success) {
      throw new AssayError('bad_data', `Calibration fit ${row.id} is stored in a form this version cannot read`, [{ field: `calibration_fits.${row.id}`, message: 'unreadable spec or parameters' }])
    }
    return {
      id: row.id,
      spec: spec.data,
      parameters: parameters.data,
      fitItems: (items.all(row.id) as { item_id: number }[]).map((r) => r.item_id),
      ...(related ? { relatedItems: (related.all({ fit: row.id }) as { id: number }[]).map((r) => r.id) } : {}),
      fitItemSplits: Object.fromEntries((splits.all(row.id) as { split: Split; n: number }[]).map((r) => [r.split, r.n])),
      nFitUnits: row.n_fit_units,
      createdAt: row.created_at
    }
  })
}

/**
 * Items made from the same originals as a fit's items: probes of a fit item, and for a fit item that is a probe its
 * original and every probe of that original or family. Null before the probes table exists (schema 7).
 */
function relatedItemsQuery(db: Db) {
  if (!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'probes'`).get()) return null
  return db.prepare(
    `WITH fit AS (SELECT item_id FROM calibration_fit_items WHERE fit_id = @fit),
          fit_probes AS (SELECT p.* FROM probes p JOIN fit ON fit.item_id = p.item_id)
     SELECT id FROM (
       SELECT q.item_id AS id FROM probes q WHERE q.original_item_id IN (SELECT item_id FROM fit)
       UNION SELECT original_item_id FROM fit_probes
       UNION SELECT q.item_id FROM probes q JOIN fit_probes p ON q.probe_family = p.probe_family OR q.original_item_id = p.original_item_id
     ) WHERE id NOT IN (SELECT item_id FROM fit) ORDER BY id`
  )
}

/** Every fit with each item it learned from, by fit; none in a file from before fits were stored. */
export function fitItemRows(db: Db): Array<{ id: number; instrument_id: string; method: string; spec: string; item_id: number }> {
  if (!hasTable(db, 'calibration_fits')) return []
  return db.prepare(`SELECT f.id, f.instrument_id, f.method, f.spec, i.item_id FROM calibration_fits f JOIN calibration_fit_items i ON i.fit_id = f.id ORDER BY f.id`).all() as Array<{
    id: number
    instrument_id: string
    method: string
    spec: string
    item_id: number
  }>
}
