import type { Migration } from './migration'

export const v005: Migration = {
  version: 5,
  name: 'archived runs and judges',
  sql: /* sql */ `
-- Archiving keeps a run or a judge (and every call) in the file but leaves it out of reports and lists by default;
-- restoring clears the mark. NULL: not archived.
ALTER TABLE runs ADD COLUMN archived_at TEXT;
ALTER TABLE judges ADD COLUMN archived_at TEXT;
`
}
