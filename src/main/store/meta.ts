import { randomUUID } from 'node:crypto'
import type { Db, WritableDB } from './database'

export function getMeta(db: Db, key: string): string | undefined {
  const row = db.prepare(`SELECT value FROM meta WHERE key = ?`).get(key) as { value: string } | undefined
  return row?.value
}

export function setMeta(db: WritableDB, key: string, value: string): void {
  db.prepare(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(key, value)
}

/** Every project has a stable id (packets name it) and a seed (display orders, splits). */
export function ensureProjectIdentity(db: WritableDB, name: string): void {
  const tx = db.transaction(() => {
    if (!getMeta(db, 'project_id')) setMeta(db, 'project_id', randomUUID())
    if (!getMeta(db, 'seed')) setMeta(db, 'seed', randomUUID().slice(0, 8))
    if (!getMeta(db, 'name')) setMeta(db, 'name', name)
    if (!getMeta(db, 'mode')) setMeta(db, 'mode', 'curator')
    if (!getMeta(db, 'created_at')) setMeta(db, 'created_at', new Date().toISOString())
  })
  tx()
}

export function deleteMeta(db: WritableDB, key: string): void {
  db.prepare(`DELETE FROM meta WHERE key = ?`).run(key)
}
