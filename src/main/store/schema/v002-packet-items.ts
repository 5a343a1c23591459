import type { Migration } from './migration'

export const v002: Migration = {
  version: 2,
  name: 'packet items',
  sql: /* sql */ `
-- The opaque item ids of an exported packet and the assignments they stand for. Only the project that made the
-- packet holds this map; the packet itself carries neither item ids nor external ids.
CREATE TABLE packet_items (
  packet_id TEXT NOT NULL REFERENCES packets(id),
  opaque_id TEXT NOT NULL,
  assignment_id INTEGER NOT NULL REFERENCES assignments(id),
  -- sha256 of the blinded view as exported: tells a changed item from a tampered packet at merge time.
  view_digest TEXT NOT NULL,
  PRIMARY KEY (packet_id, opaque_id),
  UNIQUE (packet_id, assignment_id)
) STRICT;
`
}
