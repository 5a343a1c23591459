import type { Migration } from './migration'

export const v001: Migration = {
  version: 1,
  name: 'initial schema',
  sql: /* sql */ `
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE imports (
  id INTEGER PRIMARY KEY,
  format TEXT NOT NULL,
  source TEXT NOT NULL,
  set_name TEXT,
  item_count INTEGER NOT NULL DEFAULT 0,
  label_count INTEGER NOT NULL DEFAULT 0,
  warnings TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
) STRICT;

CREATE TABLE items (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  external_id TEXT NOT NULL,
  set_name TEXT NOT NULL DEFAULT 'default',
  split TEXT NOT NULL DEFAULT 'none' CHECK (split IN ('dev','test','none')),
  title TEXT NOT NULL DEFAULT '',
  search_text TEXT NOT NULL DEFAULT '',
  -- Validated by the item kind's zod schema before insert (a per-row json_valid check would double the parse).
  payload TEXT NOT NULL,
  import_id INTEGER REFERENCES imports(id),
  created_at TEXT NOT NULL,
  UNIQUE (kind, external_id)
) STRICT;
CREATE INDEX items_by_kind_set_split ON items(kind, set_name, split, id);

CREATE TABLE annotators (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  expertise TEXT,
  pseudonym TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
) STRICT;

CREATE TABLE assignments (
  id INTEGER PRIMARY KEY,
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  item_id INTEGER NOT NULL REFERENCES items(id),
  instrument_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','done','skipped','flagged')),
  status_reason TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  UNIQUE (annotator_id, item_id, instrument_id)
) STRICT;
CREATE INDEX assignments_queue ON assignments(annotator_id, instrument_id, position);

-- Append-only: a correction is a new row that names the row it supersedes.
CREATE TABLE annotations (
  id TEXT PRIMARY KEY,
  item_id INTEGER NOT NULL REFERENCES items(id),
  instrument_id TEXT NOT NULL,
  instrument_version INTEGER NOT NULL,
  annotator_id INTEGER REFERENCES annotators(id),
  source_kind TEXT NOT NULL CHECK (source_kind IN ('human','model','reference')),
  source_name TEXT NOT NULL,
  judgement TEXT NOT NULL CHECK (json_valid(judgement)),
  display TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(display)),
  supersedes TEXT REFERENCES annotations(id),
  -- A revision that withdraws the answer it supersedes (undo); the history keeps both.
  retracted INTEGER NOT NULL DEFAULT 0 CHECK (retracted IN (0,1)),
  assignment_id INTEGER REFERENCES assignments(id),
  active_ms INTEGER,
  origin TEXT NOT NULL DEFAULT 'workbench',
  import_id INTEGER REFERENCES imports(id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
) STRICT;
CREATE INDEX annotations_by_item ON annotations(item_id, instrument_id);
CREATE INDEX annotations_by_source ON annotations(instrument_id, source_name);
CREATE INDEX annotations_by_assignment ON annotations(assignment_id);
CREATE UNIQUE INDEX annotations_one_successor ON annotations(supersedes) WHERE supersedes IS NOT NULL;
CREATE TRIGGER annotations_no_update BEFORE UPDATE ON annotations
  BEGIN SELECT RAISE(ABORT, 'annotations are append-only: add a revision instead'); END;
CREATE TRIGGER annotations_no_delete BEFORE DELETE ON annotations
  BEGIN SELECT RAISE(ABORT, 'annotations are append-only'); END;

CREATE TABLE drafts (
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  item_id INTEGER NOT NULL REFERENCES items(id),
  instrument_id TEXT NOT NULL,
  data TEXT NOT NULL CHECK (json_valid(data)),
  active_ms INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  PRIMARY KEY (annotator_id, item_id, instrument_id)
) STRICT;

CREATE TABLE adjudications (
  id TEXT PRIMARY KEY,
  item_id INTEGER NOT NULL REFERENCES items(id),
  instrument_id TEXT NOT NULL,
  judgement TEXT NOT NULL CHECK (json_valid(judgement)),
  reason TEXT NOT NULL,
  curator TEXT NOT NULL,
  based_on TEXT NOT NULL DEFAULT '[]',
  supersedes TEXT REFERENCES adjudications(id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
) STRICT;

CREATE TABLE judges (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  base_url TEXT,
  company TEXT,
  options TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
) STRICT;

CREATE TABLE templates (
  id INTEGER PRIMARY KEY,
  template_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  instrument_id TEXT NOT NULL,
  system_text TEXT,
  user_text TEXT NOT NULL,
  answer_format TEXT NOT NULL DEFAULT 'json',
  note TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  UNIQUE (template_id, version)
) STRICT;

CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  instrument_id TEXT NOT NULL,
  judge_id INTEGER NOT NULL REFERENCES judges(id),
  template_id TEXT NOT NULL,
  template_version INTEGER NOT NULL,
  selection TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(selection)),
  seed TEXT NOT NULL,
  both_orders INTEGER NOT NULL DEFAULT 0,
  trials INTEGER NOT NULL DEFAULT 1,
  options TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
  status TEXT NOT NULL DEFAULT 'created' CHECK (status IN ('created','running','done','cancelled','failed')),
  batch TEXT CHECK (batch IS NULL OR json_valid(batch)),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  finished_at TEXT
) STRICT;

CREATE TABLE model_calls (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id),
  item_id INTEGER NOT NULL REFERENCES items(id),
  trial INTEGER NOT NULL DEFAULT 0,
  order_index INTEGER NOT NULL DEFAULT 0,
  request_hash TEXT NOT NULL,
  display TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(display)),
  prompt TEXT NOT NULL CHECK (json_valid(prompt)),
  raw_answer TEXT,
  judgement TEXT CHECK (judgement IS NULL OR json_valid(judgement)),
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','ok','failed','unparseable')),
  input_tokens INTEGER,
  output_tokens INTEGER,
  cost_usd REAL,
  latency_ms INTEGER,
  attempts INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  cached INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  finished_at TEXT,
  UNIQUE (run_id, item_id, trial, order_index)
) STRICT;
CREATE INDEX model_calls_by_item ON model_calls(item_id);
CREATE INDEX model_calls_by_hash ON model_calls(request_hash);

CREATE TABLE response_cache (
  request_hash TEXT PRIMARY KEY,
  raw_answer TEXT NOT NULL,
  input_tokens INTEGER,
  output_tokens INTEGER,
  model_version TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
) STRICT;

CREATE TABLE prices (
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  input_per_mtok REAL NOT NULL,
  output_per_mtok REAL NOT NULL,
  batch_discount REAL NOT NULL DEFAULT 0.5,
  PRIMARY KEY (provider, model)
) STRICT;

-- Who saw labels or judge outputs of held-out items, or used them while revising a prompt.
CREATE TABLE exposures (
  id INTEGER PRIMARY KEY,
  item_id INTEGER NOT NULL REFERENCES items(id),
  kind TEXT NOT NULL CHECK (kind IN ('label_viewed','judge_output_viewed','annotations_viewed','prompt_revision','exported')),
  actor TEXT NOT NULL,
  detail TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
) STRICT;
CREATE INDEX exposures_by_item ON exposures(item_id);

CREATE TABLE packets (
  id TEXT PRIMARY KEY,
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  assignment_digest TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  merged_at TEXT
) STRICT;
`
}
