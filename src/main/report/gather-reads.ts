import type { StoredFit } from '../../shared/calibrate'
import type { ItemKind, Split } from '../../shared/items/kinds'
import type { ProbeFacts } from '../../shared/report/probes'
import { probeFacts } from '../probes/report-facts'
import { currentAnswers, type AnswerRow } from '../store/annotations'
import { listFits } from '../store/calibration-fits'
import type { Db } from '../store/database'
import { getItemByExternalId } from '../store/items'
import { getMeta } from '../store/meta'
import {
  annotatorPseudonyms,
  currentAdjudicationRows,
  exposureRows,
  itemRowsOfKind,
  reportRunRows,
  runCallColumns,
  type CallColumns,
  type ReportItemRow,
  type ReportRunRow
} from '../store/report-reads'

/**
 * Every read the gathering of a report makes, by name: made on one connection inside one read transaction (so the
 * report comes from one state of the project), either this thread's (`connectionReads`) or a reading thread's
 * (reads-ahead.ts), which reads ahead while this one turns what was read into columns.
 */
export interface GatherReads {
  itemRows(kind: ItemKind, split: Split | undefined): ReportItemRow[]
  /** A rediscovery task's payload by its external id (hypothesis sets are judged against their task), or null. */
  taskPayload(externalId: string): string | null
  exposures(): Array<{ item_id: number; kind: string }>
  pseudonyms(): Map<number, string>
  answers(instrumentId: string): AnswerRow[]
  adjudications(instrumentId: string): Array<{ item_id: number; judgement: string; curator: string }>
  runs(instrumentId: string, includeArchived: boolean): ReportRunRow[]
  /** A run's calls, a chunk of columns at a time, by item, trial and display order. */
  runCalls(runId: number): Iterable<CallColumns>
  meta(key: string): string | null
  fits(instrumentId: string): StoredFit[]
  probes(): ProbeFacts[]
}

/** The reads made on `db` (the caller holds the read transaction). */
export function connectionReads(db: Db): GatherReads {
  return {
    itemRows: (kind, split) => itemRowsOfKind(db, kind, split),
    taskPayload: (externalId) => getItemByExternalId(db, 'rediscovery-task', externalId)?.payload ?? null,
    exposures: () => exposureRows(db),
    pseudonyms: () => annotatorPseudonyms(db),
    answers: (instrumentId) => currentAnswers(db, instrumentId),
    adjudications: (instrumentId) => currentAdjudicationRows(db, instrumentId),
    runs: (instrumentId, includeArchived) => reportRunRows(db, instrumentId, includeArchived),
    runCalls: (runId) => runCallColumns(db, runId),
    meta: (key) => getMeta(db, key) ?? null,
    fits: (instrumentId) => listFits(db, instrumentId),
    probes: () => probeFacts(db)
  }
}
