import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeProviders, type FakeProviders } from '../../fakes'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { KEYS } from '../runner/helpers'
import { benchmarkModel, fixture } from './fixtures'

// The hypothesis benchmark's steps before generation, each from the file a user brings (committed under
// test/fixtures/protocols), through the import, the quoted request against the loopback fake, to the report.

const tmp = tempDir()
let fake: FakeProviders
const saved = { ...process.env }

beforeAll(async () => {
  fake = await startFakeProviders({ apiKeys: { openai: KEYS.openai }, responder: benchmarkModel })
  process.env.OPENAI_API_KEY = KEYS.openai
})
afterAll(async () => {
  process.env = { ...saved }
  await fake.close()
  tmp.cleanup()
})

const judge = (path: string, ...rest: string[]) => runCli('judge', path, '--provider', 'openai', '--model', 'gpt-4.1-mini', '--base-url', fake.url('openai'), ...rest)

async function newProject(name: string): Promise<string> {
  const path = tmp.file(name)
  expect((await runCli('new', path)).code).toBe(0)
  return path
}

async function report(path: string, instrument: string): Promise<any> {
  const r = await runCli('report', path, '--instrument', instrument, '--json')
  expect(r.code, r.stderr).toBe(0)
  return JSON.parse(r.stdout)
}

describe('preprint check from papers with their candidate preprints', () => {
  it('imports, asks the quoted check, and scores its verdicts and probabilities on the imported answers', async () => {
    const path = await newProject('preprints.assay')
    const imp = await runCli('import', path, 'auto', fixture('preprints.jsonl'), '--json')
    expect(imp.code, imp.stderr).toBe(0)
    expect(JSON.parse(imp.stdout)).toMatchObject({ imported: 4, errors: [] })
    const r = await judge(path, '--instrument', 'preprint-same-study', '--json')
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ outcome: 'done', counts: { total: 4, ok: 4 } })
    const sent = fake.requestsTo('openai.chat').map((x) => (x.body as { messages: { content: string }[] }).messages[1]!.content)
    expect(sent.some((u) => u.startsWith('PUBLISHED PAPER\nTitle: Senolytic drug X clears senescent cells and extends healthspan in aged mice\nAuthors: A. Rivera, B. Chen, C. Okafor\n'))).toBe(true)
    const rep = await report(path, 'preprint-same-study')
    expect(rep.sources.map((s: { id: string; role: string }) => [s.id, s.role])).toEqual([
      ['label', 'criterion'],
      ['run:1', 'judge']
    ])
    const field = (name: string) => rep.fields.find((f: { name: string }) => f.name === name).comparisons[0]
    expect(field('same_study')).toMatchObject({ criterion: 'label', n: 4, correct: 4, accuracy: 1, majority_baseline: 0.5 })
    // 0.9 on the two same-study pairs, 1 − 0.7 on the two others: ((0.1² + 0.3²) · 2) / 4.
    expect(field('p_same_study')).toMatchObject({ outcome: 'same_study of the criterion', n: 4, n_positive: 2, n_negative: 2, auroc: 1 })
    expect(field('p_same_study').brier).toBeCloseTo(0.05, 12)
  })

  it('reads the flat CSV of the same pairs', async () => {
    const path = await newProject('preprints-csv.assay')
    const imp = await runCli('import', path, 'auto', fixture('preprints.csv'), '--json')
    expect(imp.code, imp.stderr).toBe(0)
    expect(JSON.parse(imp.stdout)).toMatchObject({ imported: 2, errors: [] })
  })
})

describe('task composition from PubMed-style abstracts, gated by the leak audit', () => {
  it('composes tasks from the papers, audits them for leaks, and generates only for the tasks without one', async () => {
    const path = await newProject('abstracts.assay')
    const imp = await runCli('import', path, 'auto', fixture('abstracts.jsonl'), '--json')
    expect(imp.code, imp.stderr).toBe(0)
    expect(JSON.parse(imp.stdout)).toMatchObject({ imported: 3, errors: [] })
    fake.reset()
    fake.setScript({ responder: benchmarkModel })
    const composed = await judge(path, '--instrument', 'generation', '--generate', 'tasks', '--scheme', 'single', '--out-set', 'composed', '--json')
    expect(composed.code, composed.stderr).toBe(0)
    const out = JSON.parse(composed.stdout)
    expect(out).toMatchObject({ outcome: 'done', counts: { total: 3, ok: 3 } })
    expect(out.tasks).toHaveLength(2)
    const first = (fake.requestsTo('openai.chat')[0]!.body as { messages: { content: string }[] }).messages[1]!.content
    expect(first).toBe(
      'Paper title: Senolytic drug X clears senescent cells and extends healthspan in aged mice\nJournal: Nature Aging\n\nAbstract:\n' +
        'BACKGROUND: Senescent cells accumulate with age and drive tissue dysfunction.\n\nRESULTS: We show that drug X selectively clears p16-positive senescent cells in aged mice and extends healthspan by 20%.' +
        first.slice(first.indexOf('\n\nDecide whether'))
    )

    const audit = await judge(path, '--instrument', 'leak-audit', '--set', 'composed', '--json')
    expect(audit.code, audit.stderr).toBe(0)
    expect(JSON.parse(audit.stdout)).toMatchObject({ outcome: 'done', counts: { total: 2, ok: 2 } })
    const rep = await report(path, 'leak-audit')
    expect(rep.sources.map((s: { id: string }) => s.id)).toEqual(['run:2'])
    expect(rep.scope).toMatchObject({ n_items: 2 })
    // Papers are composed in file order: the second task is the UCP2 one, whose background names UCP2.
    const leaky = out.tasks[1]

    const gen = await judge(path, '--instrument', 'generation', '--scheme', 'single', '--set', 'composed', '--json')
    expect(gen.code, gen.stderr).toBe(0)
    const g = JSON.parse(gen.stdout)
    expect(g.sets).toHaveLength(1)
    expect(g.skipped).toEqual([{ itemId: expect.any(Number), externalId: leaky, reason: 'leak audit: leak (found by run:2)' }])
    // The decision stays with the run.
    const { runs } = JSON.parse((await runCli('runs', 'list', path, '--json')).stdout)
    expect(runs.find((r: { id: number }) => r.id === g.runId)).toMatchObject({ skipped: 1, skippedItems: [{ externalId: leaky, reason: 'leak audit: leak (found by run:2)' }] })
    // The text list says it too: the count in its column, the item and who found the leak below.
    const listed = (await runCli('runs', 'list', path)).stdout
    expect(listed).toMatch(/\bskipped\b/)
    expect(listed).toContain(`run ${g.runId} skipped ${leaky}: leak audit: leak (found by run:2)`)

    const kept = await judge(path, '--instrument', 'generation', '--scheme', 'single', '--set', 'composed', '--keep-leaky', '--json')
    expect(kept.code, kept.stderr).toBe(0)
    const k = JSON.parse(kept.stdout)
    expect(k.runId).not.toBe(g.runId)
    expect(k.skipped).toEqual([])
    expect(k.sets).toHaveLength(2)
  })
})

describe('reference comparison from two readers’ findings', () => {
  it('imports, asks the quoted comparison with reader A and B in their places, and reports it', async () => {
    const path = await newProject('references.assay')
    const empty = await judge(path, '--instrument', 'reference-comparison')
    expect(empty.code).toBe(1)
    expect(empty.stderr).toContain(`reference-comparison needs reference-pair items: import them with \`assay import ${path} references <path>\``)
    const imp = await runCli('import', path, 'auto', fixture('references.csv'), '--json')
    expect(imp.code, imp.stderr).toBe(0)
    expect(JSON.parse(imp.stdout)).toMatchObject({ imported: 2, errors: [] })
    fake.reset()
    fake.setScript({ responder: benchmarkModel })
    const r = await judge(path, '--instrument', 'reference-comparison', '--json')
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ outcome: 'done', counts: { total: 2, ok: 2 } })
    const users = fake.requestsTo('openai.chat').map((x) => (x.body as { messages: { content: string }[] }).messages[1]!.content)
    expect(users).toContain(
      'Two readers summarised the main experimentally confirmed finding of the same paper. Compare them.\n\n' +
        'Reader A finding: Drug X clears p16-positive senescent cells in aged mice and extends healthspan.\n' +
        'Reader A key points: drug X; p16-positive senescent cells; healthspan\n\n' +
        'Reader B finding: Drug X is senolytic in aged mice and improves healthspan.\n' +
        'Reader B key points: drug X; senolysis; healthspan\n\n' +
        users[0]!.slice(users[0]!.indexOf('Return JSON'))
    )
    expect(users.every((u) => !u.includes('gpt-5') && !u.includes('gemini'))).toBe(true)
    const rep = await report(path, 'reference-comparison')
    expect(rep.sources.map((s: { id: string; n_answered: number }) => [s.id, s.n_answered])).toEqual([['run:1', 2]])
    expect(rep.fields.map((f: { name: string }) => f.name)).toEqual(['same_core_finding', 'same_mechanism_or_target', 'same_direction_of_effect', 'b_adds_elements', 'b_omits_elements'])
  })
})
