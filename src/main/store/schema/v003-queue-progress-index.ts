import type { Migration } from './migration'

export const v003: Migration = {
  version: 3,
  name: 'queue progress index',
  sql: /* sql */ `
-- Progress counts per queue (done, skipped, flagged) without visiting every assignment row.
CREATE INDEX assignments_progress ON assignments(annotator_id, instrument_id, status);
`
}
