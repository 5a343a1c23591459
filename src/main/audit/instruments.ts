import { INSTRUMENT_IDS, INSTRUMENTS } from '../../shared/instruments'
import { ACTIVE_RUN_SQL } from '../store/archive'
import type { Db } from '../store/database'

export interface AuditableInstrument {
  id: string
  title: string
  item_kind: string
  n_annotations: number
  n_calls: number
  /** Items carrying their own reference label (proposal pairs), which any pairwise instrument can be scored on. */
  n_labelled_items: number
}

/** Instruments with something to report on: answers, judge calls, or labelled items; and the splits present. */
export function auditableInstruments(db: Db): { instruments: AuditableInstrument[]; splits: string[] } {
  const count = (sql: string, ...params: unknown[]) => (db.prepare(sql).get(...params) as { n: number }).n
  const labelledPairs = count(`SELECT count(*) AS n FROM items WHERE kind = 'proposal-pair' AND json_extract(payload, '$.label') IS NOT NULL`)
  const instruments = INSTRUMENT_IDS.map((id) => {
    const inst = INSTRUMENTS[id]
    return {
      id,
      title: inst.title,
      item_kind: inst.itemKind,
      n_annotations: count(
        `SELECT count(*) AS n FROM annotations a WHERE a.instrument_id = ? AND a.retracted = 0 AND NOT EXISTS (SELECT 1 FROM annotations b WHERE b.supersedes = a.id)`,
        id
      ),
      n_calls: count(`SELECT count(*) AS n FROM model_calls c JOIN runs r ON r.id = c.run_id JOIN judges j ON j.id = r.judge_id WHERE r.instrument_id = ? AND ${ACTIVE_RUN_SQL}`, id),
      n_labelled_items: id === 'pairwise-preference' ? labelledPairs : 0
    }
  }).filter((i) => i.n_annotations + i.n_calls + i.n_labelled_items > 0)
  const splits = (db.prepare(`SELECT DISTINCT split FROM items ORDER BY split`).all() as { split: string }[]).map((r) => r.split)
  return { instruments, splits }
}
