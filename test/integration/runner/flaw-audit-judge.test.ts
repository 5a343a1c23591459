import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeProviders, type FakeProviders, type Prompt } from '../../fakes'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { Project } from '../../../src/main/store/project'
import { demoProject, KEYS } from './helpers'

// The flaw-audit judge through the command line against the loopback fake, on the demo's pairs (which carry the
// experts' flaw audits): the model's answer is parsed into the flaw-audit instrument's schema and checked by its
// checks; a quote that is not exact, or a flaw of an unknown type, is kept as unparseable for that flaw.

const tmp = tempDir()
let fake: FakeProviders
let path: string
const saved = { ...process.env }
const PLANTED = 'This allocation is provably optimal'

function proposal(p: Prompt, side: 'A' | 'B'): string {
  return new RegExp(`=== PROPOSAL ${side} ===\\n([\\s\\S]*?)\\n=== END OF PROPOSAL ${side} ===`).exec(p.user)?.[1] ?? ''
}

/** Names the planted formula flaw where it is shown, with its sentence quoted exactly; adds a paraphrase and a bad type. */
function auditor(p: Prompt): string {
  if (!p.user.includes('Audit each proposal for flaws.')) return '{}'
  const flaws: unknown[] = []
  for (const side of ['A', 'B'] as const) {
    const text = proposal(p, side)
    const at = text.indexOf(PLANTED)
    if (at >= 0) flaws.push({ side, type: 'Unsound_Method', severity: 'FATAL', evidence: text.slice(at, text.indexOf('.', at) + 1), note: 'Linear objective.' })
  }
  const first = proposal(p, 'A').split('\n').find((l) => l.trim().length > 40) ?? 'x'
  flaws.push({ side: 'A', type: 'flawed_design', severity: 'minor', evidence: `${first.slice(0, 30)} (paraphrased)`, note: 'n' })
  flaws.push({ side: 'B', type: 'vibes', severity: 'major', evidence: 'anything', note: 'n' })
  return `\`\`\`json\n${JSON.stringify({ flaws, comment: '' })}\n\`\`\``
}

beforeAll(async () => {
  fake = await startFakeProviders({ apiKeys: { openai: KEYS.openai }, responder: auditor })
  path = tmp.file('flaws.assay')
  ;(await demoProject(path)).close()
})
afterAll(async () => {
  process.env = { ...saved }
  await fake.close()
  tmp.cleanup()
})

describe('flaw-audit judge through the CLI', () => {
  it('asks the written-for-Assay prompt, keeps exact quotes and records the others as unparseable flaws', async () => {
    process.env.OPENAI_API_KEY = KEYS.openai
    const r = await runCli('judge', path, '--instrument', 'flaw-audit', '--provider', 'openai', '--model', 'gpt-4.1-mini', '--base-url', fake.url('openai'), '--json')
    expect(r.code, r.stderr).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out.counts).toMatchObject({ total: 12, ok: 12, unparseable: 0 })
    const first = fake.requestsTo('openai.chat')[0]!.body as { messages: { role: string; content: string }[] }
    expect(first.messages[0]!.content).toContain('You audit research proposals for flaws')
    const project = await Project.open(path)
    try {
      const calls = project.db.prepare(`SELECT c.judgement, c.error, c.display, i.external_id FROM model_calls c JOIN items i ON i.id = c.item_id ORDER BY c.id`).all() as { judgement: string; error: string | null; display: string; external_id: string }[]
      const judgements = calls.map((c) => ({ ...c, j: JSON.parse(c.judgement) as { flaws: { side: string; type: string; severity: string; evidence: string }[]; unparseable_flaws: { side: string | null; type: string | null; error: string }[] } }))
      for (const c of judgements) {
        // Never dropped: the paraphrase and the unknown type are both kept, each with why.
        expect(c.j.unparseable_flaws).toHaveLength(2)
        expect(c.j.unparseable_flaws.find((u) => u.type === 'flawed_design')!.error).toMatch(/not an exact quote/)
        expect(c.j.unparseable_flaws.find((u) => u.type === 'vibes')!.error).toMatch(/^type:/)
        expect(c.error).toBeNull()
      }
      // The planted flaw, named on the canonical side it is in whichever side it was shown on.
      const formula = judgements.find((c) => c.external_id === 'demo-formula')!
      expect(formula.j.flaws).toEqual([expect.objectContaining({ side: 'b', type: 'unsound_method', severity: 'fatal', evidence: expect.stringContaining(PLANTED) })])
      // The paraphrase was shown as A: stored on the canonical side A stands for.
      const swapped = JSON.parse(formula.display).swapped === true
      expect(formula.j.unparseable_flaws.find((u) => u.type === 'flawed_design')!.side).toBe(swapped ? 'b' : 'a')
    } finally {
      project.close()
    }

    // The report scores the judge's audits against the experts' (the demo has one expert audit on three pairs).
    const report = await runCli('report', path, '--instrument', 'flaw-audit', '--json')
    expect(report.code, report.stderr).toBe(0)
    const section = JSON.parse(report.stdout).flaw_matching
    expect(section.n_reference_items).toBe(3)
    const [row] = section.rows
    expect(row).toMatchObject({ source: `run:${out.runId}`, reference: 'majority', n_items: 3, n_unparseable_flaws: 6 })
    expect(row.overall).toMatchObject({ n_expert: 3, n_expert_found: 1, n_judge: 1, n_judge_matched: 1, precision: 1 })
    expect(row.overall.recall).toBeCloseTo(1 / 3, 10)
    expect(row.by_severity.map((c: { key: string; recall: number }) => [c.key, c.recall])).toEqual([['minor', 0], ['major', 0], ['fatal', 1]])
    expect(row.by_type.find((c: { key: string }) => c.key === 'unsound_method')).toMatchObject({ recall: 1, precision: 1 })
    expect(row.by_type.find((c: { key: string }) => c.key === 'covered_by_prior_work')).toMatchObject({ recall: 0, precision: null })
    expect(row.quote_overlap).toBeGreaterThan(0.5)
    expect(row.n_quote_pairs).toBe(1)

    // The pairwise report's fatal-flaw section shows the judge's own flaw audits beside the experts'.
    const pairwise = await runCli('report', path, '--instrument', 'pairwise-preference', '--json')
    expect(pairwise.code, pairwise.stderr).toBe(0)
    expect(JSON.parse(pairwise.stdout).pairwise.judge_flaw_audits).toEqual([
      { source: `run:${out.runId}`, name: `gpt-4.1-mini · run ${out.runId}`, n_fatal: 1, n_unparseable: 0, n_unanswered: 0, n_named: 1, recall: 1, recall_ci: [expect.any(Number), 1], n_other_side_fatal: 0, n_audited: 12 }
    ])
    const html = tmp.file('pairwise.html')
    expect((await runCli('report', path, '--instrument', 'pairwise-preference', '--html', html)).code).toBe(0)
    expect(readFileSync(html, 'utf8')).toContain('Judges\' own flaw audits beside the experts\'')
  })
})
