import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'
import { importGraph } from '../../support/import-graph'
import { repoRoot } from '../../support/tmp'

// SQL lives in src/main/store: a lint rule refuses `.prepare`, `.pragma` and `.exec` of SQL text anywhere else in
// src/main, in any spelling, and a connection opened there, except in the files the config lists, which still hold
// queries of their own. And what makes an answer or an adjudication current is
// written once, in the views of schema/v009-current-answer-views.ts.

const eslint = new ESLint({ cwd: repoRoot })
const { PREPARE_OUTSIDE_STORE } = (await import(pathToFileURL(join(repoRoot, 'eslint.config.js')).href)) as { PREPARE_OUTSIDE_STORE: string[] }
const RULE = 'no-restricted-syntax'

async function sqlProblems(path: string, text: string): Promise<number> {
  const [result] = await eslint.lintText(text, { filePath: join(repoRoot, path) })
  return result!.messages.filter((m) => m.ruleId === RULE).length
}

const query = "import type { Db } from '../store/database'\nexport const n = (db: Db) => db.prepare('SELECT count(*) FROM items').get()\n"

describe('SQL in the store', () => {
  it('refuses a statement prepared outside src/main/store', async () => {
    expect(await sqlProblems('src/main/annotation/planted.ts', query)).toBe(1)
    expect(await sqlProblems('src/main/api/handlers/planted.ts', query.replace("'../store/database'", "'../../store/database'"))).toBe(1)
    expect(await sqlProblems('src/main/runner/planted.ts', "export const n = (p: { db: { prepare(s: string): unknown } }) => p.db\n  .prepare(`SELECT 1`)\n")).toBe(1)
  })

  it('refuses SQL in any other spelling, and a connection opened outside the store', async () => {
    const planted = (body: string) => sqlProblems('src/main/annotation/planted.ts', `import type { Db } from '../store/database'\n${body}\n`)
    expect(await planted("export const a = (db: Db) => db['prepare']('SELECT 1')")).toBe(1)
    expect(await planted('export const b = (db: Db) => db.prepare.bind(db)')).toBe(1)
    expect(await planted("export const c = (db: Db) => db.exec('DELETE FROM drafts')")).toBe(1)
    expect(await planted('export const d = (db: Db) => db.exec(`VACUUM`)')).toBe(1)
    expect(await planted("export const e = (db: Db) => db.pragma('user_version = 0')")).toBe(1)
    expect(await planted("export const f = (db: Db) => db['exec']('VACUUM')")).toBe(1)
    // A regular expression's exec is not SQL.
    expect(await planted("export const g = (s: string) => /x/.exec(s) ?? /y/.exec('y')")).toBe(0)
    const [opened] = await eslint.lintText("import Database from 'better-sqlite3'\nexport const h = (p: string) => new Database(p)\n", { filePath: join(repoRoot, 'src/main/annotation/planted.ts') })
    expect(opened!.messages.map((m) => m.ruleId)).toContain('@typescript-eslint/no-restricted-imports')
    const [typed] = await eslint.lintText("import type Database from 'better-sqlite3'\nexport type H = Database.Database\n", { filePath: join(repoRoot, 'src/main/annotation/planted.ts') })
    expect(typed!.messages).toEqual([])
    // The import rule still keeps electron out of main beside it.
    const [electron] = await eslint.lintText("import { app } from 'electron'\nexport const i = app\n", { filePath: join(repoRoot, 'src/main/annotation/planted.ts') })
    expect(electron!.messages.map((m) => m.ruleId)).toContain('@typescript-eslint/no-restricted-imports')
  })

  it('lets the store prepare statements, and no file outside it', async () => {
    expect(await sqlProblems('src/main/store/planted.ts', query.replace("'../store/database'", "'./database'"))).toBe(0)
    // The audit's gathering was the last file with queries of its own; they now live in store/report-reads.ts.
    expect(await sqlProblems('src/main/report/gather.ts', query)).toBe(1)
    expect(PREPARE_OUTSIDE_STORE).toEqual([])
  })

  it('lists only files that exist and still prepare statements, none of them in the store', () => {
    const stale = PREPARE_OUTSIDE_STORE.filter((file) => !existsSync(join(repoRoot, file)) || !readFileSync(join(repoRoot, file), 'utf8').includes('.prepare('))
    expect(stale).toEqual([])
    expect(PREPARE_OUTSIDE_STORE.filter((file) => file.startsWith('src/main/store/'))).toEqual([])
    expect(new Set(PREPARE_OUTSIDE_STORE).size).toBe(PREPARE_OUTSIDE_STORE.length)
  })

  it('defines the current version of an answer and of an adjudication once, as views of the schema', () => {
    const { files } = importGraph(repoRoot, ['src/main', 'src/shared'])
    const rewritten = files.filter((file) => /\bsupersedes\s*=\s*\w+\.id\b/.test(readFileSync(join(repoRoot, file), 'utf8')))
    expect(rewritten).toEqual(['src/main/store/schema/v009-current-answer-views.ts'])
  })

  it('passes on the tree', async () => {
    const results = await eslint.lintFiles(['src/main'])
    const problems = results.flatMap((r) => r.messages.filter((m) => m.ruleId === RULE).map((m) => `${r.filePath}:${m.line}`))
    expect(problems).toEqual([])
  }, 60_000)
})
