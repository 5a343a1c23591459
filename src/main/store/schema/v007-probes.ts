import type { Migration } from './migration'

export const v007: Migration = {
  version: 7,
  name: 'probes',
  sql: /* sql */ `
-- Probe kinds a project defines beyond the built-in ones (which live in code), versioned: a changed rule is a new
-- version, and every probe names the version it was made under.
CREATE TABLE probe_kinds (
  name TEXT NOT NULL,
  version INTEGER NOT NULL CHECK (version > 0),
  title TEXT NOT NULL,
  instruction TEXT NOT NULL,
  pairwise_rule TEXT NOT NULL CHECK (pairwise_rule IN ('original_better','no_preference')),
  flaw_type TEXT,
  flaw_severity TEXT CHECK (flaw_severity IS NULL OR flaw_severity IN ('minor','major','fatal')),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  PRIMARY KEY (name, version)
) STRICT;

-- A probe: an item derived from an original item with one controlled change. Its full provenance (diff, exact edit,
-- expectations) is also in the probe item's payload; these columns are what reports and lists select by.
CREATE TABLE probes (
  item_id INTEGER PRIMARY KEY REFERENCES items(id),
  original_item_id INTEGER NOT NULL REFERENCES items(id),
  original_side TEXT NOT NULL CHECK (original_side IN ('a','b')),
  probe_family TEXT NOT NULL,
  kind TEXT NOT NULL,
  kind_version INTEGER NOT NULL,
  method TEXT NOT NULL CHECK (method IN ('hand','deterministic','model')),
  template_id TEXT,
  template_version INTEGER,
  run_id INTEGER REFERENCES runs(id),
  provenance TEXT NOT NULL CHECK (json_valid(provenance)),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  CHECK (item_id != original_item_id)
) STRICT;
CREATE INDEX probes_by_family ON probes(probe_family);
CREATE INDEX probes_by_original ON probes(original_item_id, kind);
`
}
