import type { Migration } from './migration'

export const v008: Migration = {
  version: 8,
  name: 'draft layouts',
  sql: /* sql */ `
-- The display mapping a draft was entered in (which canonical side was shown left, the order of a hypothesis set),
-- so a draft is read against the layout it was made for. NULL for drafts saved before layouts were recorded.
ALTER TABLE drafts ADD COLUMN display TEXT CHECK (display IS NULL OR json_valid(display));

-- Drafts that could not be carried over to a changed layout: kept, never shown as if they fitted it.
CREATE TABLE drafts_set_aside (
  id INTEGER PRIMARY KEY,
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  item_id INTEGER NOT NULL REFERENCES items(id),
  instrument_id TEXT NOT NULL,
  data TEXT NOT NULL CHECK (json_valid(data)),
  display TEXT CHECK (display IS NULL OR json_valid(display)),
  active_ms INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL,
  set_aside_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
) STRICT;
CREATE INDEX drafts_set_aside_by_owner ON drafts_set_aside(annotator_id, item_id, instrument_id);
`
}
