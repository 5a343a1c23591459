import type { Migration } from './migration'

export const v006: Migration = {
  version: 6,
  name: 'calibration fits',
  sql: /* sql */ `
-- Recalibrations of a judge: what was fitted (method, source, criterion, fields, splits), its parameters and when.
CREATE TABLE calibration_fits (
  id INTEGER PRIMARY KEY,
  instrument_id TEXT NOT NULL,
  method TEXT NOT NULL,
  source TEXT NOT NULL,
  spec TEXT NOT NULL CHECK (json_valid(spec)),
  parameters TEXT NOT NULL CHECK (json_valid(parameters)),
  n_fit_units INTEGER NOT NULL CHECK (n_fit_units >= 0),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
) STRICT;
CREATE INDEX calibration_fits_by_instrument ON calibration_fits(instrument_id);

-- The items whose labels a fit used.
CREATE TABLE calibration_fit_items (
  fit_id INTEGER NOT NULL REFERENCES calibration_fits(id) ON DELETE CASCADE,
  item_id INTEGER NOT NULL REFERENCES items(id),
  PRIMARY KEY (fit_id, item_id)
) STRICT, WITHOUT ROWID;

-- A fit never learns from test items; refused here as well as in the code that fits.
CREATE TRIGGER calibration_fit_items_no_test BEFORE INSERT ON calibration_fit_items
WHEN (SELECT split FROM items WHERE id = NEW.item_id) = 'test'
BEGIN
  SELECT RAISE(ABORT, 'a calibration fit cannot use test items');
END;
`
}
