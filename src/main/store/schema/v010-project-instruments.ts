import type { Migration } from './migration'

export const v010: Migration = {
  version: 10,
  name: 'project instruments',
  sql: /* sql */ `
-- Instruments a project declares itself, every version kept: a changed declaration is a new version, and answers
-- keep the version they were given under (annotations.instrument_version, model_calls.instrument_version).
CREATE TABLE project_instruments (
  instrument_id TEXT NOT NULL,
  version INTEGER NOT NULL CHECK (version > 0),
  declaration TEXT NOT NULL CHECK (json_valid(declaration)),
  -- sha256 of the declaration's canonical JSON: adding the same declaration again adds nothing.
  content_hash TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  PRIMARY KEY (instrument_id, version)
) STRICT;
`
}
