// Schema migrations, applied in order by `PRAGMA user_version`, each in one transaction.
// Never edit a released migration: add a new file under ./schema and list it here, in version order.
import type { Migration } from './schema/migration'
import { v001 } from './schema/v001-initial-schema'
import { v002 } from './schema/v002-packet-items'
import { v003 } from './schema/v003-queue-progress-index'
import { v004 } from './schema/v004-namespaced-extra-fields'
import { v005 } from './schema/v005-archived-sources'
import { v006 } from './schema/v006-calibration-fits'
import { v007 } from './schema/v007-probes'
import { v008 } from './schema/v008-draft-layouts'
import { v009 } from './schema/v009-current-answer-views'
import { v010 } from './schema/v010-project-instruments'

export type { Migration } from './schema/migration'

export const MIGRATIONS: ReadonlyArray<Migration> = [v001, v002, v003, v004, v005, v006, v007, v008, v009, v010]

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version
