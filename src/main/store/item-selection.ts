import type { Db } from './database'

/** Which items a run works on: a set and a split (either left open), and at most `limit` of them. */
export interface ItemSelection {
  set?: string | undefined
  split?: string | undefined
  limit?: number | undefined
}

/**
 * The `columns` of the items that meet `conditions` (SQL with `?` for each of `params`) in the selection's set and
 * split, in id order; the first `limit` only when one is given (a caller that drops rows counts them itself).
 */
export function itemsWhere<Row>(db: Db, columns: string, conditions: string[], params: unknown[], selection: ItemSelection, limit?: number): Row[] {
  const where = [...conditions]
  const values = [...params]
  if (selection.set) {
    where.push('set_name = ?')
    values.push(selection.set)
  }
  if (selection.split) {
    where.push('split = ?')
    values.push(selection.split)
  }
  const upTo = limit ? ` LIMIT ${Math.floor(limit)}` : ''
  return db.prepare(`SELECT ${columns} FROM items WHERE ${where.join(' AND ')} ORDER BY id${upTo}`).all(...values) as Row[]
}
