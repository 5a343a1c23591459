import { fitParametersSchema, fitSpecSchema, type FitParameters, type FitSpec, type StoredFit } from '../../shared/calibrate'
import { AssayError } from '../../shared/errors'
import type { Db } from '../store/database'

interface FitRow {
  id: number
  spec: string
  parameters: string
  n_fit_units: number
  created_at: string
}

/** Stores a fit and the items it used, in the caller's transaction. */
export function insertFit(db: Db, spec: FitSpec, parameters: FitParameters, fitItems: readonly number[], nFitUnits: number): number {
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
      nFitUnits: row.n_fit_units,
      createdAt: row.created_at
    }
  })
}
