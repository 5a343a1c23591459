import type { Migration } from './migration'

export const v009: Migration = {
  version: 9,
  name: 'current answer views',
  sql: /* sql */ `
-- What "current" means for the two append-only tables, defined once, as views every query of a current answer reads.
-- A correction is a new row naming the row it supersedes, so a chain's head is the row nothing supersedes.

-- The head of every answer chain, retractions (undo) included: what a new revision is appended after. An answer has
-- at most one successor (annotations_one_successor), so each chain has one head.
CREATE VIEW annotation_heads AS
  SELECT a.* FROM annotations a
  WHERE NOT EXISTS (SELECT 1 FROM annotations successor WHERE successor.supersedes = a.id);

-- Current answers: heads that are not retractions (an answer whose head is a retraction has no current version).
CREATE VIEW current_annotations AS
  SELECT h.* FROM annotation_heads h WHERE h.retracted = 0;

-- Adjudications chain per (item, instrument). Nothing stops two rows superseding the same one, so should a chain
-- fork, its latest head stands: the latest created_at, and of equal times the row written last.
CREATE INDEX adjudications_by_successor ON adjudications(supersedes) WHERE supersedes IS NOT NULL;
CREATE INDEX adjudications_by_instrument ON adjudications(instrument_id, item_id);
CREATE VIEW adjudication_heads AS
  SELECT a.*, a.rowid AS written FROM adjudications a
  WHERE NOT EXISTS (SELECT 1 FROM adjudications successor WHERE successor.supersedes = a.id);

-- One row per (item, instrument): the current adjudication, its final label.
CREATE VIEW current_adjudications AS
  SELECT h.id, h.item_id, h.instrument_id, h.judgement, h.reason, h.curator, h.based_on, h.supersedes, h.created_at
  FROM adjudication_heads h
  WHERE NOT EXISTS (
    SELECT 1 FROM adjudication_heads later
    WHERE later.item_id = h.item_id AND later.instrument_id = h.instrument_id
      AND (later.created_at > h.created_at OR (later.created_at = h.created_at AND later.written > h.written)));
`
}
