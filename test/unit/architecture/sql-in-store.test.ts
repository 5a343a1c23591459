import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'
import { importGraph } from '../../support/import-graph'
import { repoRoot } from '../../support/tmp'

// SQL lives in src/main/store: a lint rule refuses `.prepare(` anywhere else in src/main, except in the files the
// config lists, which still hold queries of their own. And what makes an answer or an adjudication current is
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
