import type { Db, WritableDB } from './database'

// The `judges` table: one row per judge configuration (provider, model, endpoint, options).

export interface JudgeRow {
  id: number
  name: string
  provider: string
  model: string
  base_url: string | null
  company: string | null
  options: string
  created_at: string
}

export function judgeRows(db: Db): JudgeRow[] {
  return db.prepare(`SELECT * FROM judges ORDER BY id`).all() as JudgeRow[]
}

export function judgeRow(db: Db, id: number): JudgeRow | undefined {
  return db.prepare(`SELECT * FROM judges WHERE id = ?`).get(id) as JudgeRow | undefined
}

export function judgeRowByName(db: Db, name: string): JudgeRow | undefined {
  return db.prepare(`SELECT * FROM judges WHERE name = ?`).get(name) as JudgeRow | undefined
}

export function insertJudge(db: WritableDB, j: { name: string; provider: string; model: string; baseUrl: string | null; company: string | null; options: unknown }): number {
  const info = db
    .prepare(`INSERT INTO judges (name, provider, model, base_url, company, options) VALUES (?, ?, ?, ?, ?, ?)`)
    .run(j.name, j.provider, j.model, j.baseUrl, j.company, JSON.stringify(j.options))
  return Number(info.lastInsertRowid)
}
