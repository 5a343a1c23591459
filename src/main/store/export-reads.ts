import type { Db } from './database'

// What exports read: current answers and finished model calls, each with its item (and the run, judge and
// pseudonym they name), in a set and a split when given; and the history they number and pseudonymise by.

export interface ExportSelection {
  set: string | null
  split: string | null
  instrument: string | null
}

const ITEM_FILTER = `(@set IS NULL OR i.set_name = @set) AND (@split IS NULL OR i.split = @split)`

export interface AnnotationJoin {
  id: string
  item_id: number
  instrument_id: string
  instrument_version: number
  source_kind: string
  source_name: string
  judgement: string
  display: string
  active_ms: number | null
  origin: string
  created_at: string
  pseudonym: string | null
  external_id: string
  kind: string
  set_name: string
  split: string
  payload: string
}

/** Current answers (heads of revision chains, retractions left out) with their item, in item order. */
export function currentAnswersWithItems(db: Db, selection: ExportSelection): AnnotationJoin[] {
  return db
    .prepare(
      `SELECT a.id, a.item_id, a.instrument_id, a.instrument_version, a.source_kind, a.source_name, a.judgement, a.display,
              a.active_ms, a.origin, a.created_at, an.pseudonym, i.external_id, i.kind, i.set_name, i.split, i.payload
       FROM current_annotations a
       JOIN items i ON i.id = a.item_id
       LEFT JOIN annotators an ON an.id = a.annotator_id
       WHERE ${ITEM_FILTER} AND (@instrument IS NULL OR a.instrument_id = @instrument)
       ORDER BY i.id, a.instrument_id, a.source_kind, a.source_name, a.created_at`
    )
    .all(selection) as AnnotationJoin[]
}

/** Every answer's id and the id of the answer it revises. */
export function revisionParents(db: Db): { id: string; supersedes: string | null }[] {
  return db.prepare(`SELECT id, supersedes FROM annotations`).all() as { id: string; supersedes: string | null }[]
}

/** The columns of a model call that are exported as they are stored. */
export interface StoredCallColumns {
  trial: number
  order_index: number
  status: string
  raw_answer: string | null
  error: string | null
  input_tokens: number | null
  output_tokens: number | null
  cost_usd: number | null
  latency_ms: number | null
  attempts: number
  created_at: string
  finished_at: string | null
}

export interface CallJoin extends StoredCallColumns {
  run_id: number
  item_id: number
  judgement: string | null
  display: string
  cached: number
  instrument_id: string
  template_id: string
  template_version: number
  judge_name: string
  provider: string
  model: string
  company: string | null
  external_id: string
  kind: string
  set_name: string
  split: string
  payload: string
}

/** Finished model calls (pending ones are not results yet) with their run, judge and item. */
export function finishedCallsWithItems(db: Db, selection: ExportSelection): CallJoin[] {
  return db
    .prepare(
      `SELECT mc.run_id, mc.item_id, mc.trial, mc.order_index, mc.status, mc.judgement, mc.display, mc.raw_answer, mc.error,
              mc.input_tokens, mc.output_tokens, mc.cost_usd, mc.latency_ms, mc.attempts, mc.cached, mc.created_at, mc.finished_at,
              r.instrument_id, r.template_id, r.template_version, j.name AS judge_name, j.provider, j.model, j.company,
              i.external_id, i.kind, i.set_name, i.split, i.payload
       FROM model_calls mc
       JOIN runs r ON r.id = mc.run_id
       JOIN judges j ON j.id = r.judge_id
       JOIN items i ON i.id = mc.item_id
       WHERE mc.status != 'pending' AND ${ITEM_FILTER} AND (@instrument IS NULL OR r.instrument_id = @instrument)
       ORDER BY r.id, i.id, mc.trial, mc.order_index`
    )
    .all(selection) as CallJoin[]
}

/** Every annotator's name and pseudonym; and the curators of adjudications, in the order of their first one. */
export function pseudonymSources(db: Db): { annotators: { name: string; pseudonym: string }[]; curators: string[] } {
  return {
    annotators: db.prepare(`SELECT name, pseudonym FROM annotators`).all() as { name: string; pseudonym: string }[],
    curators: (db.prepare(`SELECT curator FROM adjudications ORDER BY created_at, rowid`).all() as { curator: string }[]).map((r) => r.curator)
  }
}

/** Every exposure's item and kind. */
export function allExposures(db: Db): { item_id: number; kind: string }[] {
  return db.prepare(`SELECT item_id, kind FROM exposures`).all() as { item_id: number; kind: string }[]
}
