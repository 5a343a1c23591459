import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { Project } from '../../../src/main/store/project'
import { getInstrument } from '../../../src/shared/instruments'

// Training sets from the demo: the two demonstration experts' verdicts on the proposal pairs, split dev/test.
const tmp = tempDir('assay-training-')
const path = tmp.file('demo.assay')
const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l))

beforeAll(async () => {
  expect((await runCli('new', path, '--demo')).code).toBe(0)
  expect((await runCli('split', path, '--test', '0.5', '--kind', 'proposal-pair', '--seed', 'train')).code).toBe(0)
})
afterAll(() => tmp.cleanup())

// A YAML parser (ESLint's own, already installed) reads the card as the datasets library would.
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown }

/** The YAML front matter of a dataset card, as the lines between the two `---`. */
function frontMatter(card: string): string[] {
  const [, yaml] = card.split(/^---$/m)
  return (yaml ?? '').trim().split('\n')
}

describe('export preferences', () => {
  const out = tmp.file('prefs')
  let project: Project
  let ties: number
  beforeAll(async () => {
    const r = await runCli('export', path, 'preferences', '--out', out, '--json')
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    ties = JSON.parse(r.stdout).excluded.ties
    project = await Project.open(path)
  })
  afterAll(() => project.close())

  it('writes {prompt, chosen, rejected} per split with the rendered prompt in canonical order and the label source', () => {
    const dev = lines(join(out, 'dev.jsonl'))
    const test = lines(join(out, 'test.jsonl'))
    for (const row of [...dev, ...test]) {
      expect(row.prompt.map((m: { role: string }) => m.role)).toEqual(['system', 'user'])
      const pair = project.db.prepare(`SELECT payload, split FROM items WHERE external_id = ?`).get(row.item) as { payload: string; split: string }
      const payload = JSON.parse(pair.payload)
      expect(row.split).toBe(pair.split)
      // Canonical order: proposal a's text is shown as A, before proposal b's.
      const user: string = row.prompt[1].content
      expect(user.indexOf('=== PROPOSAL A ===')).toBeLessThan(user.indexOf('=== PROPOSAL B ==='))
      const chosen = JSON.parse(row.chosen[0].content)
      const rejected = JSON.parse(row.rejected[0].content)
      expect(getInstrument('pairwise-preference').judgement.safeParse(chosen).success).toBe(true)
      expect(chosen.verdict.toLowerCase()).toBe(row.verdict)
      expect(rejected.verdict.slice(0, 1)).not.toBe(chosen.verdict.slice(0, 1))
      expect(['majority', 'adjudicated', 'single annotator', 'reference']).toContain(row.label_source)
      expect(payload.label_source === undefined || typeof payload.label_source === 'string').toBe(true)
    }
    // Both experts answered every pair: where they agree the majority decides; where they split, the pair is left out.
    expect(new Set([...dev, ...test].map((r) => r.label_source))).toEqual(new Set(['majority']))
    expect(dev.length + test.length + ties).toBe(12)
  })

  it('writes a Hugging Face dataset card whose configs name each split file', () => {
    const card = readFileSync(join(out, 'README.md'), 'utf8')
    const yaml = frontMatter(card)
    expect(yaml).toContain('license: other')
    expect(yaml).toContain('task_categories:')
    expect(yaml).toContain('- n<1K')
    expect(yaml).toContain('- config_name: default')
    expect(yaml).toContain('  - split: dev')
    expect(yaml).toContain('    path: "dev.jsonl"')
    expect(yaml).toContain('  - split: test')
    expect(card).toContain(`Left out: ${ties} tied majorities, 0 items where every answer abstained`)
    expect(card).toMatch(/always picking the majority side scores/)
  })

  it('logs the test items it wrote as exposed and refuses to write over the folder without --force', async () => {
    const exported = project.db.prepare(`SELECT count(DISTINCT item_id) AS n FROM exposures WHERE kind = 'exported'`).get() as { n: number }
    expect(exported.n).toBe(lines(join(out, 'test.jsonl')).length)
    const again = await runCli('export', path, 'preferences', '--out', out)
    expect(again.code).not.toBe(0)
    expect(again.stderr).toMatch(/exists|--force/)
  })
})

describe('the license in the dataset card', () => {
  const card = (dir: string) => readFileSync(join(dir, 'README.md'), 'utf8')
  const parsed = (dir: string) => yaml.load(card(dir).split(/^---$/m)[1] ?? '') as Record<string, unknown>

  it('is one value of the front matter: a line break cannot add keys, and such a license is refused', async () => {
    const out = tmp.file('prefs-license')
    const r = await runCli('export', path, 'preferences', '--out', out, '--split', 'dev', '--license', 'mit\nconfigs: []\nextra_gated_prompt: x')
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--license')
    expect(existsSync(out)).toBe(false)
  })

  it('keeps an id bare and quotes any other text, so the front matter parses to exactly the keys written', async () => {
    for (const [license, name] of [
      ['cc-by-4.0', 'prefs-cc'],
      ['"quoted": yes # not a comment', 'prefs-odd']
    ] as const) {
      const out = tmp.file(name)
      expect((await runCli('export', path, 'preferences', '--out', out, '--split', 'dev', '--license', license)).code).toBe(0)
      const front = parsed(out)
      expect(Object.keys(front)).toEqual(['license', 'task_categories', 'language', 'tags', 'size_categories', 'configs'])
      expect(front.license).toBe(license)
    }
    expect(card(tmp.file('prefs-cc'))).toContain('license: cc-by-4.0\n')
  })
})

describe('export finetune', () => {
  it('writes chat messages whose assistant turn is the expert verdict in the answer format, ties counted', async () => {
    // Two more experts against a pair both demonstration experts agree on make it a tie (2 against 2).
    const project = await Project.open(path)
    const before = JSON.parse((await runCli('export', path, 'finetune', '--out', tmp.file('sft-before'), '--split', 'dev', '--json')).stdout)
    const exported = lines(join(tmp.file('sft-before'), 'dev.jsonl')).map((r: { item: string }) => r.item)
    const pair = { external_id: exported[0] as string }
    project.close()
    const flip = (name: string) => JSON.stringify({ item: pair.external_id, instrument: 'pairwise-preference', source: name, source_kind: 'human', judgement: { verdict: 'b_much_better' } })
    const file = tmp.file('flip.jsonl')
    const { writeFileSync } = await import('node:fs')
    writeFileSync(file, `${flip('Demo Expert 3')}\n${flip('Demo Expert 4')}\n`)
    expect((await runCli('import', path, 'labels', file)).code).toBe(0)
    const out = tmp.file('sft')
    const r = await runCli('export', path, 'finetune', '--out', out, '--split', 'dev', '--json')
    expect(r.code).toBe(0)
    const result = JSON.parse(r.stdout)
    expect(result.excluded.ties).toBe(before.excluded.ties + 1)
    expect(result.rows).toBe(before.rows - 1)
    const rows = lines(join(out, 'dev.jsonl'))
    expect(rows.some((row: { item: string }) => row.item === pair.external_id)).toBe(false)
    for (const row of rows) {
      expect(row.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant'])
      const answer = JSON.parse(row.messages[2].content)
      expect(answer).toHaveProperty('analysis')
      expect(answer.verdict).toMatch(/^[AB]_(much_)?better$/)
      expect(answer.fatal_flaws).toEqual([])
    }
    expect(existsSync(join(out, 'test.jsonl'))).toBe(false)
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toContain(`Left out: ${before.excluded.ties + 1} tied majorities`)
  })
})

describe('export finetune of an instrument answered per unit', () => {
  it('writes a single expert’s whole answer with hypotheses under the labels the prompt shows', async () => {
    const { demoWithScoreJudge, EXPERT, SETS } = await import('../calibrate/fixture')
    const file = tmp.file('match.assay')
    const unlabelled = await demoWithScoreJudge(file, tmp.file('match.jsonl'))
    const out = tmp.file('match-sft')
    const r = await runCli('export', file, 'finetune', '--instrument', 'hypothesis-match', '--out', out, '--json')
    expect(r.code).toBe(0)
    const rows = [...lines(join(out, 'dev.jsonl')), ...lines(join(out, 'test.jsonl'))]
    expect(rows).toHaveLength(5)
    expect(rows.map((row: { item: string }) => row.item)).not.toContain(unlabelled)
    const sets = Object.keys(SETS)
    for (const row of rows) {
      const answer = JSON.parse(row.messages[2].content)
      expect(getInstrument('hypothesis-match').judgement.safeParse(answer).success).toBe(true)
      expect(answer.scores.map((s: { id: string }) => s.id).sort()).toEqual(['P1', 'P2', 'P3', 'P4', 'P5'])
      // Each P label names a hypothesis the user message shows under that label; the expert's scores are all there.
      for (const s of answer.scores) expect(row.messages[1].content).toContain(`[${s.id}] `)
      const k = sets.indexOf(row.item)
      expect(answer.scores.map((s: { match: number }) => s.match).sort()).toEqual([...EXPERT[k]!].sort())
      expect(row.label_source).toBe('single annotator')
    }
  })
})
