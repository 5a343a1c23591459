import type { Db, WritableDB } from './database'
import { itemSearchText, itemTitle, type ItemKind, type Split } from '../../shared/items/kinds'

export interface NewItem {
  kind: ItemKind
  externalId: string
  set: string
  split: Split
  payload: Record<string, unknown>
}

export interface ItemRow {
  id: number
  kind: ItemKind
  external_id: string
  set_name: string
  split: Split
  title: string
  payload: string
  created_at: string
}

export interface ItemQuery {
  kind?: ItemKind | undefined
  set?: string | undefined
  split?: Split | undefined
  text?: string | undefined
  offset: number
  limit: number
}

/** Inserts many items with one prepared statement; the caller owns the transaction. */
export function insertItems(db: WritableDB, items: Iterable<NewItem>, importId: number | null = null): number[] {
  const stmt = db.prepare(
    `INSERT INTO items (kind, external_id, set_name, split, title, search_text, payload, import_id, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
  )
  // One timestamp for the batch: the items of one import arrive together.
  const createdAt = new Date().toISOString()
  const ids: number[] = []
  for (const it of items) {
    const info = stmt.run(
      it.kind,
      it.externalId,
      it.set,
      it.split,
      itemTitle(it.kind, it.externalId, it.payload),
      itemSearchText(it.kind, it.payload),
      JSON.stringify(it.payload),
      importId,
      createdAt
    )
    ids.push(Number(info.lastInsertRowid))
  }
  return ids
}

function whereClause(q: Omit<ItemQuery, 'offset' | 'limit'>): { sql: string; params: unknown[] } {
  const parts: string[] = []
  const params: unknown[] = []
  const equal = (column: string, value: unknown) => {
    parts.push(`${column} = ?`)
    params.push(value)
  }
  if (q.kind) equal('kind', q.kind)
  if (q.set) equal('set_name', q.set)
  if (q.split) equal('split', q.split)
  if (q.text && q.text.trim()) {
    // instr() is a plain substring match: no LIKE wildcards to escape, case folded on both sides.
    parts.push('(instr(lower(search_text), lower(?)) > 0 OR instr(lower(external_id), lower(?)) > 0)')
    params.push(q.text.trim(), q.text.trim())
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params }
}

export function listItems(db: Db, q: ItemQuery): { total: number; rows: Omit<ItemRow, 'payload' | 'created_at'>[] } {
  const { sql, params } = whereClause(q)
  const total = (db.prepare(`SELECT count(*) AS n FROM items ${sql}`).get(...params) as { n: number }).n
  const rows = db
    .prepare(`SELECT id, kind, external_id, set_name, split, title FROM items ${sql} ORDER BY id LIMIT ? OFFSET ?`)
    .all(...params, q.limit, q.offset) as Omit<ItemRow, 'payload' | 'created_at'>[]
  return { total, rows }
}

export function getItem(db: Db, id: number): ItemRow | undefined {
  return db.prepare(`SELECT * FROM items WHERE id = ?`).get(id) as ItemRow | undefined
}

export function getItemByExternalId(db: Db, kind: ItemKind, externalId: string): ItemRow | undefined {
  return db.prepare(`SELECT * FROM items WHERE kind = ? AND external_id = ?`).get(kind, externalId) as ItemRow | undefined
}

export function findItemsByExternalId(db: Db, externalId: string): ItemRow[] {
  return db.prepare(`SELECT * FROM items WHERE external_id = ?`).all(externalId) as ItemRow[]
}

export interface CountRow {
  kind: string
  set_name: string
  split: string
  n: number
}

export function countItems(db: Db): CountRow[] {
  return db
    .prepare(`SELECT kind, set_name, split, count(*) AS n FROM items GROUP BY kind, set_name, split ORDER BY kind, set_name, split`)
    .all() as CountRow[]
}

export function setSplit(db: WritableDB, ids: number[], split: Split): void {
  const stmt = db.prepare(`UPDATE items SET split = ? WHERE id = ?`)
  for (const id of ids) stmt.run(split, id)
}

/** The sets the items of `ids` belong to, sorted. */
export function setsOfItems(db: Db, ids: ReadonlyArray<number>): string[] {
  if (ids.length === 0) return []
  const rows = db.prepare(`SELECT DISTINCT set_name FROM items WHERE id IN (${ids.map(() => '?').join(',')}) ORDER BY set_name`).all(...ids) as Array<{ set_name: string }>
  return rows.map((r) => r.set_name)
}

/** The kinds, sets and splits the items have, each sorted. */
export function itemFacets(db: Db): { kinds: string[]; sets: string[]; splits: string[] } {
  const col = (c: 'kind' | 'set_name' | 'split') => (db.prepare(`SELECT DISTINCT ${c} AS v FROM items ORDER BY 1`).all() as { v: string }[]).map((r) => r.v)
  return { kinds: col('kind'), sets: col('set_name'), splits: col('split') }
}

/** Proposal pairs that carry their own reference label. */
export function labelledPairCount(db: Db): number {
  return (db.prepare(`SELECT count(*) AS n FROM items WHERE kind = 'proposal-pair' AND json_extract(payload, '$.label') IS NOT NULL`).get() as { n: number }).n
}

/** The splits the items are in, sorted. */
export function itemSplits(db: Db): string[] {
  return (db.prepare(`SELECT DISTINCT split FROM items ORDER BY split`).all() as { split: string }[]).map((r) => r.split)
}

/** The idea items a generation run created, by external id, and whether the run selected each. */
export function ideasOfRun(db: Db, runId: number): { external_id: string; selected: number }[] {
  return db
    .prepare(`SELECT external_id, json_extract(payload, '$.generation.selected') AS selected FROM items WHERE kind = 'idea' AND json_extract(payload, '$.generation.run_id') = ? ORDER BY id`)
    .all(runId) as { external_id: string; selected: number }[]
}

/** The external ids of the hypothesis sets a generation run created. */
export function hypothesisSetsOfRun(db: Db, runId: number): string[] {
  return (
    db.prepare(`SELECT external_id FROM items WHERE kind = 'hypothesis-set' AND json_extract(payload, '$.provenance.run_id') = ? ORDER BY id`).all(runId) as { external_id: string }[]
  ).map((r) => r.external_id)
}

/** The items of a kind, within a set and a split when given (what assigning an instrument chooses from). */
export function itemsOfKind(db: Db, kind: string, set: string | null, split: string | null): Array<{ id: number; kind: string; external_id: string; payload: string }> {
  return db
    .prepare(`SELECT id, kind, external_id, payload FROM items WHERE kind = ? AND (? IS NULL OR set_name = ?) AND (? IS NULL OR split = ?)`)
    .all(kind, set, set, split, split) as Array<{ id: number; kind: string; external_id: string; payload: string }>
}

export type SelectedItem = Pick<ItemRow, 'id' | 'kind' | 'external_id' | 'set_name' | 'split' | 'payload'>

/** A finder of an item by id, only if it is in the set and split given (null for any). */
export function selectedItemFinder(db: Db): (id: number, set: string | null, split: string | null) => SelectedItem | undefined {
  const stmt = db.prepare(
    `SELECT id, kind, external_id, set_name, split, payload FROM items WHERE id = @id
       AND (@set IS NULL OR set_name = @set) AND (@split IS NULL OR split = @split)`
  )
  return (id, set, split) => stmt.get({ id, set, split }) as SelectedItem | undefined
}

export type ItemSummary = Pick<ItemRow, 'id' | 'kind' | 'external_id' | 'title' | 'payload'>

/** A finder of an item's kind, ids, title and payload. */
export function itemSummaryFinder(db: Db): (id: number) => ItemSummary | undefined {
  const stmt = db.prepare(`SELECT id, kind, external_id, title, payload FROM items WHERE id = ?`)
  return (id) => stmt.get(id) as ItemSummary | undefined
}

/** The payloads of every item of a kind. */
export function payloadsOfKind(db: Db, kind: string): string[] {
  return (db.prepare(`SELECT payload FROM items WHERE kind = ?`).all(kind) as { payload: string }[]).map((r) => r.payload)
}

/** A finder of whether the project has an item of a kind with an external id. */
export function itemExistsFinder(db: Db): (kind: string, externalId: string) => boolean {
  const stmt = db.prepare(`SELECT 1 FROM items WHERE kind = ? AND external_id = ?`)
  return (kind, externalId) => stmt.get(kind, externalId) !== undefined
}

/** A finder of an item's payload by id. */
export function itemPayloadFinder(db: Db): (id: number) => string | undefined {
  const stmt = db.prepare(`SELECT payload FROM items WHERE id = ?`)
  return (id) => (stmt.get(id) as { payload: string } | undefined)?.payload
}

/** The kinds and payloads of the items with these ids (missing ids are left out). */
export function kindsAndPayloads(db: Db, ids: readonly number[]): Array<{ id: number; kind: string; payload: string }> {
  return db.prepare(`SELECT id, kind, payload FROM items WHERE id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids)) as Array<{ id: number; kind: string; payload: string }>
}

/** The external ids of the rediscovery tasks a composition run created. */
export function composedTasksOfRun(db: Db, runId: number): string[] {
  return (db.prepare(`SELECT external_id FROM items WHERE kind = 'rediscovery-task' AND json_extract(payload, '$.composition.run_id') = ? ORDER BY id`).all(runId) as { external_id: string }[]).map((r) => r.external_id)
}

/** The external ids of the responses an answering run stored. */
export function responsesOfRun(db: Db, runId: number): string[] {
  return (db.prepare(`SELECT external_id FROM items WHERE kind = 'fs-problem' AND json_extract(payload, '$.answering.run_id') = ? ORDER BY id`).all(runId) as { external_id: string }[]).map((r) => r.external_id)
}

/** The sets that hold proposal pairs. */
export function proposalPairSets(db: Db): string[] {
  return (db.prepare(`SELECT DISTINCT set_name AS s FROM items WHERE kind = 'proposal-pair'`).all() as Array<{ s: string }>).map((r) => r.s)
}

export type ExportedItem = Pick<ItemRow, 'id' | 'external_id' | 'set_name' | 'payload'> & { kind: ItemKind; split: Split }

/** The items of a kind in a set and a split (either left open), in id order. */
export function itemsForExport(db: Db, kind: string, set: string | null, split: string | null): ExportedItem[] {
  return db
    .prepare(`SELECT id, kind, external_id, set_name, split, payload FROM items WHERE kind = ? AND (? IS NULL OR set_name = ?) AND (? IS NULL OR split = ?) ORDER BY id`)
    .all(kind, set, set, split, split) as ExportedItem[]
}

/** Which items a split is drawn over: a set and a kind, either left open (null). */
export interface SplitSelection {
  set: string | null
  kind: string | null
}

const SPLIT_WHERE = `(? IS NULL OR set_name = ?) AND (? IS NULL OR kind = ?)`
const splitParams = (s: SplitSelection) => [s.set, s.set, s.kind, s.kind]

/** Items of the selection already in a split that have answers or judge calls (a split of them is frozen). */
export function answeredSplitItemCount(db: Db, s: SplitSelection): number {
  return (
    db
      .prepare(
        `SELECT count(*) AS n FROM items i WHERE ${SPLIT_WHERE} AND i.split != 'none'
           AND (EXISTS (SELECT 1 FROM annotations a WHERE a.item_id = i.id) OR EXISTS (SELECT 1 FROM model_calls c WHERE c.item_id = i.id))`
      )
      .get(...splitParams(s)) as { n: number }
  ).n
}

export function itemsToSplit(db: Db, s: SplitSelection): Array<{ id: number; kind: string; external_id: string; set_name: string; payload: string }> {
  return db.prepare(`SELECT id, kind, external_id, set_name, payload FROM items WHERE ${SPLIT_WHERE}`).all(...splitParams(s)) as Array<{
    id: number
    kind: string
    external_id: string
    set_name: string
    payload: string
  }>
}

/** Items of the selection that have a judge's answer. */
export function judgedItemCount(db: Db, s: SplitSelection): number {
  return (
    db
      .prepare(`SELECT count(*) AS n FROM items i WHERE ${SPLIT_WHERE} AND EXISTS (SELECT 1 FROM model_calls c WHERE c.item_id = i.id AND c.status IN ('ok', 'unparseable'))`)
      .get(...splitParams(s)) as { n: number }
  ).n
}

export function assignSplits(db: WritableDB, assignment: ReadonlyArray<{ id: number; split: Split }>): void {
  const stmt = db.prepare(`UPDATE items SET split = ? WHERE id = ?`)
  for (const a of assignment) stmt.run(a.split, a.id)
}
