import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Prompt } from '../../fakes'
import { runCli } from '../../support/cli'
import { repoRoot, tempDir } from '../../support/tmp'
import { openAiFakeForFile } from '../runner/helpers'

// Questions asked of each proposal of a pair, from declaration to report: experts' labels imported, a judge asked
// through the fake provider (answering with the sides as shown), and agreement computed per side.

const tmp = tempDir()
const DECLARATION = join(repoRoot, 'test', 'fixtures', 'instruments', 'proposal-scores.yaml')
const N = 6
const novelty = (n: number, side: 'a' | 'b') => (side === 'a' ? 3 + (n % 5) : 8 - (n % 4))

function judgeAnswer(p: Prompt): string {
  const n = Array.from({ length: N }, (_, i) => i + 1).find((i) => p.user.includes(`left proposal ${i}.`))
  if (!n) return '{}'
  const leftFirst = p.user.indexOf(`left proposal ${n}.`) < p.user.indexOf(`right proposal ${n}.`)
  const [first, second] = leftFirst ? (['a', 'b'] as const) : (['b', 'a'] as const)
  const scores = (side: 'a' | 'b') => ({ novelty: String(novelty(n, side)), feasible: side === 'a' ? 'Yes' : 'no' })
  return JSON.stringify({ scores: { A: scores(first), B: scores(second) }, better: leftFirst ? 'a' : 'b' })
}

const openai = openAiFakeForFile(judgeAnswer)
afterAll(() => tmp.cleanup())

describe('a declared per-side group', () => {
  it('is labelled, judged with the sides as shown, and compared per side', async () => {
    const path = tmp.file('scores.assay')
    expect((await runCli('new', path)).code).toBe(0)
    expect((await runCli('instrument', 'add', path, DECLARATION)).code).toBe(0)
    const rows = Array.from({ length: N }, (_, i) => ({ row: `p${i + 1}`, left: `The left proposal ${i + 1}.`, right: `The right proposal ${i + 1}.`, left_by: 'human', right_by: 'ai' }))
    writeFileSync(tmp.file('pairs.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n')
    const items = await runCli('import', path, 'generic', tmp.file('pairs.jsonl'), '--as', 'pairs', '--map', 'id=row,a_text=left,b_text=right,a_origin=left_by,b_origin=right_by')
    expect(items.code, items.stderr).toBe(0)
    const label = (source: string, n: number) =>
      JSON.stringify({
        item: `p${n}`,
        instrument: 'proposal-scores',
        source,
        source_kind: 'human',
        judgement: { scores: { a: { novelty: novelty(n, 'a'), feasible: 'yes' }, b: { novelty: novelty(n, 'b'), feasible: 'no' } }, better: 'a' }
      })
    writeFileSync(tmp.file('labels.jsonl'), rows.flatMap((_, i) => [label('Bo', i + 1), label('Cy', i + 1)]).join('\n') + '\n')
    const imported = await runCli('import', path, 'labels', tmp.file('labels.jsonl'))
    expect(imported.code, imported.stderr).toBe(0)

    // A fixed seed of the display orders: the project’s own is random, and with six pairs about one project in 64 shows
    // every pair as stored, none the other way round.
    const judged = await runCli('judge', path, '--instrument', 'proposal-scores', '--provider', 'openai', '--model', 'gpt-4.1-mini', '--base-url', openai.fake.url('openai'), '--seed', '7', '--json')
    expect(judged.code, judged.stderr).toBe(0)
    expect(JSON.parse(judged.stdout).counts).toMatchObject({ total: N, ok: N, unparseable: 0 })
    // The seeded order shows some pairs the other way round, so the mapping back is exercised.
    const users = openai.fake.requestsTo('openai.chat').map((q) => (q.body as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'user')!.content)
    expect(users.some((u) => u.indexOf('right proposal') < u.indexOf('left proposal'))).toBe(true)

    const r = await runCli('report', path, '--instrument', 'proposal-scores', '--json')
    expect(r.code, r.stderr).toBe(0)
    const report = JSON.parse(r.stdout) as { summary: { source: string; field: string; level: string; n_items: number; n_units: number; accuracy: { value: number } | null }[] }
    const byField = new Map(report.summary.filter((s) => s.source === 'run:1').map((s) => [s.field, s]))
    expect(byField.get('scores.novelty')).toMatchObject({ level: 'ordinal', n_items: N, n_units: 2 * N })
    expect(byField.get('scores.feasible')).toMatchObject({ level: 'nominal', n_units: 2 * N })
    // Shown either way round, every side's answer came back to its own side: the judge agrees on every unit.
    for (const field of ['scores.novelty', 'scores.feasible', 'better']) expect(byField.get(field)!.accuracy!.value, field).toBe(1)
  }, 60_000)
})
