import type { WritableDB } from './database'

// The `imports` table: one row per import, which its items and answers name.

export interface NewImport {
  format: string
  source: string
  set: string
  itemCount: number
  labelCount: number
  warnings: unknown
}

export function insertImport(db: WritableDB, i: NewImport): number {
  const info = db
    .prepare(`INSERT INTO imports (format, source, set_name, item_count, label_count, warnings) VALUES (?, ?, ?, ?, ?, ?)`)
    .run(i.format, i.source, i.set, i.itemCount, i.labelCount, JSON.stringify(i.warnings))
  return Number(info.lastInsertRowid)
}
