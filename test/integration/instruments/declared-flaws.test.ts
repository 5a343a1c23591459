import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Prompt } from '../../fakes'
import { runCli } from '../../support/cli'
import { repoRoot, tempDir } from '../../support/tmp'
import { openAiFakeForFile } from '../runner/helpers'

// A declared flaw list over proposal pairs, from declaration to report: two experts' labels imported, a judge asked
// through the fake provider, and the report's agreement on each side's worst flaw and on whether it has a fatal one.

const tmp = tempDir()
const DECLARATION = join(repoRoot, 'test', 'fixtures', 'instruments', 'proposal-flaws.yaml')

const PAIRS = [1, 2, 3, 4].map((n) => ({
  row: `p${n}`,
  left: `# Left ${n}\n\nWe divide the effect by the sample size squared in study ${n}.`,
  right: `# Right ${n}\n\nWe replicate the known result of study ${n} with a larger sample.`
}))

/** Who found what: the judge sees the formula error in every pair, the experts in three of four. */
const flawsOf = (n: number, fatal: boolean) => [
  { side: 'a', type: 'unsound_method', severity: fatal ? 'fatal' : 'major', evidence: 'sample size squared' },
  { side: 'b', type: 'covered_by_prior_work', severity: 'minor', evidence: `known result of study ${n}` }
]

function judgeAnswer(p: Prompt): string {
  // The proposals are shown without their titles.
  const body = (md: string) => md.split('\n\n')[1]!
  const n = PAIRS.findIndex((x) => p.user.includes(body(x.left))) + 1
  if (n === 0) return '{}'
  // The pair may be shown either way round: the flaws name the sides as shown.
  const leftFirst = p.user.indexOf(body(PAIRS[n - 1]!.left)) < p.user.indexOf(body(PAIRS[n - 1]!.right))
  const shown = (side: string) => (leftFirst ? side : side === 'a' ? 'b' : 'a')
  return JSON.stringify({ flaws: flawsOf(n, true).map((f) => ({ ...f, side: shown(f.side).toUpperCase(), note: '' })), overall: shown('b') })
}

const openai = openAiFakeForFile(judgeAnswer)
afterAll(() => tmp.cleanup())

describe('a declared flaw list', () => {
  it('is labelled, judged and reported per side like the built-in flaw audit', async () => {
    const path = tmp.file('flaws.assay')
    expect((await runCli('new', path)).code).toBe(0)
    const check = await runCli('instrument', 'check', path, DECLARATION)
    expect(check.code, check.stderr).toBe(0)
    expect((await runCli('instrument', 'add', path, DECLARATION)).code).toBe(0)
    writeFileSync(tmp.file('pairs.jsonl'), PAIRS.map((p) => JSON.stringify({ ...p, left_by: 'human', right_by: 'ai' })).join('\n') + '\n')
    const items = await runCli('import', path, 'generic', tmp.file('pairs.jsonl'), '--as', 'pairs', '--map', 'id=row,a_text=left,b_text=right,a_origin=left_by,b_origin=right_by', '--set', 'study')
    expect(items.code, items.stderr).toBe(0)

    const label = (source: string, n: number, fatal: boolean) =>
      JSON.stringify({ item: `p${n}`, instrument: 'proposal-flaws', source, source_kind: 'human', judgement: { flaws: flawsOf(n, fatal), overall: 'b' } })
    const labels = [1, 2, 3, 4].flatMap((n) => [label('Bo', n, n !== 4), label('Cy', n, n !== 4)])
    // Evidence that is not in the proposal it names is flagged by line and field, as for the built-in flaw audit.
    const wrong = JSON.stringify({ item: 'p1', instrument: 'proposal-flaws', source: 'Di', source_kind: 'human', judgement: { flaws: [{ side: 'b', type: 'unsound_method', severity: 'fatal', evidence: 'sample size squared' }], overall: 'a' } })
    writeFileSync(tmp.file('wrong.jsonl'), [...labels, wrong].join('\n') + '\n')
    const flagged = await runCli('import', path, 'labels', tmp.file('wrong.jsonl'), '--dry-run')
    expect(flagged.stderr).toContain('wrong.jsonl:9: judgement.flaws.0.evidence: This quote is not in the proposal the flaw names.')
    writeFileSync(tmp.file('labels.jsonl'), labels.join('\n') + '\n')
    const imported = await runCli('import', path, 'labels', tmp.file('labels.jsonl'))
    expect(imported.code, imported.stderr).toBe(0)

    const judged = await runCli('judge', path, '--instrument', 'proposal-flaws', '--provider', 'openai', '--model', 'gpt-4.1-mini', '--base-url', openai.fake.url('openai'), '--json')
    expect(judged.code, judged.stderr).toBe(0)
    expect(JSON.parse(judged.stdout).counts).toMatchObject({ total: 4, ok: 4, unparseable: 0 })
    const user = (openai.fake.requestsTo('openai.chat')[0]!.body as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'user')!.content
    expect(user).toContain('"flaws" (Flaws): a list of the flaws found, empty if there are none')

    const r = await runCli('report', path, '--instrument', 'proposal-flaws', '--json')
    expect(r.code, r.stderr).toBe(0)
    const report = JSON.parse(r.stdout) as { summary: { source: string; field: string; level: string; n_items: number; n_units: number; accuracy: { value: number } | null; agreement: { statistic: string; value: number | null } | null }[] }
    const rows = new Map(report.summary.filter((s) => s.source === 'run:1').map((s) => [s.field, s]))
    expect([...rows.keys()]).toEqual(expect.arrayContaining(['flaws.worst', 'flaws.has_fatal', 'flaws.unsound_method', 'overall']))
    // Counted per side: 8 units on 4 pairs.
    expect(rows.get('flaws.worst')).toMatchObject({ level: 'ordinal', n_items: 4, n_units: 8 })
    expect(rows.get('flaws.has_fatal')!.level).toBe('nominal')
    // Every side's flaw types agree; the judge calls pair 4's formula error fatal where the experts say major.
    expect(rows.get('flaws.unsound_method')!.agreement!.value).toBe(1)
    expect(rows.get('flaws.has_fatal')!.agreement!.value).toBeLessThan(1)
    expect(rows.get('flaws.worst')!.agreement!.value).toBeLessThan(1)
    // The sides were mapped back from the order each was shown in: the judge's better proposal is b everywhere, as
    // the experts say (a constant label, so κ is undefined and the accuracy tells).
    expect(rows.get('overall')!.accuracy!.value).toBe(1)
  }, 60_000)
})
