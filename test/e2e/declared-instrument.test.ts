import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startFakeProviders, type FakeProviders, type Prompt } from '../fakes'
import { hasChromium, chromiumSuite } from '../support/browser'
import { browserSuite } from '../support/browser-suite'
import { runCli } from '../support/cli'
import { repoRoot } from '../support/tmp'
import { KEYS } from '../integration/runner/helpers'
import { Project } from '../../src/main/store/project'

// A team's own instrument from declaration to report: declared in a YAML file, items and one expert's labels
// imported by mapping, a second expert answering in the browser, a judge asked through the fake provider, and the
// report's agreement statistics over the declared fields.

const DECLARATION = join(repoRoot, 'test', 'fixtures', 'instruments', 'idea-study.yaml')

const IDEAS = [
  { id: 'i1', title: 'Cold atoms', text: 'Trap atoms in an optical lattice and cool them below the recoil limit.' },
  { id: 'i2', title: 'Warm ions', text: 'Heat trapped ions with a noisy drive to study decoherence.' },
  { id: 'i3', title: 'Soft robots', text: 'Print soft grippers from a hydrogel that stiffens in light.' }
]

/** Each expert's (and the judge's) scores, by idea: close but not identical, so agreement is high and not perfect. */
const BO = { i1: [8, 7, 6, 'accept'], i2: [3, 2, 5, 'reject'], i3: [6, 6, 4, 'borderline'] } as const
const ADA = { i1: [8, 8, 6, 'accept'], i2: [3, 3, 5, 'reject'], i3: [5, 6, 4, 'borderline'] } as const
const JUDGE = { i1: [9, 7, 6, 'accept'], i2: [2, 2, 5, 'reject'], i3: [6, 5, 4, 'borderline'] } as const

function judgeAnswer(p: Prompt): string {
  const idea = IDEAS.find((i) => p.user.includes(i.text))
  if (!idea || !p.user.includes('Answer with one JSON object')) return '{}'
  const [novelty, excitement, feasibility, verdict] = JUDGE[idea.id as keyof typeof JUDGE]
  return JSON.stringify({ novelty, excitement, feasibility, verdict, rationale: 'Judged from the text.' })
}

describe.skipIf(!hasChromium)(chromiumSuite('a declared instrument from file to report, in Chromium'), () => {
  const suite = browserSuite('assay-declared-')
  let path: string
  let page: Page
  let fake: FakeProviders
  const savedKey = process.env.OPENAI_API_KEY

  beforeAll(async () => {
    fake = await startFakeProviders({ apiKeys: { openai: KEYS.openai }, responder: judgeAnswer })
    path = suite.file('study.assay')
    expect((await runCli('new', path)).code).toBe(0)
    const check = await runCli('instrument', 'check', path, DECLARATION)
    expect(check.code, check.stderr).toBe(0)
    expect(check.stdout).toContain('idea-study is valid: 5 fields')
    const add = await runCli('instrument', 'add', path, DECLARATION)
    expect(add.stdout).toContain('Added idea-study version 1')

    writeFileSync(suite.file('ideas.csv'), ['key,name,body', ...IDEAS.map((i) => `${i.id},${i.title},"${i.text}"`), ''].join('\n'))
    const items = await runCli('import', path, 'generic', suite.file('ideas.csv'), '--as', 'texts', '--map', 'id=key,text=body,title=name', '--set', 'study')
    expect(items.code, items.stderr).toBe(0)
    // One expert's labels, made elsewhere, against the declared instrument.
    const labels = Object.entries(BO).map(([item, [novelty, excitement, feasibility, verdict]]) =>
      JSON.stringify({ item, instrument: 'idea-study', source: 'Bo', source_kind: 'human', judgement: { novelty, excitement, feasibility, verdict, rationale: '' } })
    )
    writeFileSync(suite.file('labels.jsonl'), labels.join('\n') + '\n')
    const imported = await runCli('import', path, 'labels', suite.file('labels.jsonl'))
    expect(imported.code, imported.stderr).toBe(0)

    expect((await runCli('annotators', 'add', path, 'Ada')).code).toBe(0)
    const assigned = await runCli('assign', path, '--instrument', 'idea-study', '--annotators', 'Ada', '--overlap', '1')
    expect(assigned.code, assigned.stderr).toBe(0)

    const served = await suite.serve(path, ['--annotator', 'Ada'])
    page = await suite.page({ viewport: { width: 1024, height: 700 } }, served.url)
    page.setDefaultTimeout(10_000)
  }, 60_000)

  afterAll(async () => {
    if (savedKey === undefined) delete process.env.OPENAI_API_KEY
    else process.env.OPENAI_API_KEY = savedKey
    await fake?.close()
  })

  it('draws the declared form and takes an expert’s answers to every item', async () => {
    await expect.poll(() => page.getByTestId('queue').first().textContent()).toContain('Research idea review')
    await page.getByTestId('queue').first().click()
    const item = page.getByTestId('item')
    await item.waitFor()
    for (let n = 0; n < IDEAS.length; n++) {
      const shownIdea = async () => {
        const shown = (await item.textContent()) ?? ''
        return IDEAS.find((i) => shown.includes(i.text))
      }
      // The text is drawn once the Markdown parser has arrived, which may come after the item.
      await expect.poll(shownIdea).toBeTruthy()
      const current = (await shownIdea())!
      const text = (await item.textContent()) ?? ''
      const [novelty, excitement, feasibility, verdict] = ADA[current.id as keyof typeof ADA]
      expect(text).toContain('Read the idea once through')
      expect(text).toContain('How different the idea is from existing work.')
      const at = await item.getAttribute('data-assignment')
      await item.getByRole('radiogroup', { name: 'Novelty' }).getByRole('radio', { name: String(novelty), exact: true }).click()
      await item.getByRole('radiogroup', { name: 'Excitement' }).getByRole('radio', { name: String(excitement), exact: true }).click()
      await item.getByRole('radiogroup', { name: 'Feasibility' }).getByRole('radio', { name: String(feasibility), exact: true }).click()
      await item.getByRole('radiogroup', { name: 'Overall' }).getByRole('radio', { name: new RegExp(verdict, 'i') }).click()
      await item.getByLabel('Rationale').fill(`Scored ${current.title}.`)
      await item.getByTestId('submit').click()
      if (n < IDEAS.length - 1) await expect.poll(() => item.getAttribute('data-assignment')).not.toBe(at)
    }
    // The last submission is committed in the background: wait until the file has all three.
    const adaAnswers = async () => {
      const { project } = await Project.openForReading(path)
      try {
        return (project.db.prepare(`SELECT count(*) AS n FROM annotations a JOIN annotators p ON p.id = a.annotator_id WHERE p.name = 'Ada'`).get() as { n: number }).n
      } finally {
        project.close()
      }
    }
    await expect.poll(adaAnswers).toBe(3)
    const project = await Project.open(path)
    try {
      const rows = project.db
        .prepare(`SELECT i.external_id AS item, a.judgement, a.instrument_version AS v FROM annotations a JOIN items i ON i.id = a.item_id WHERE a.source_kind = 'human' ORDER BY i.external_id`)
        .all() as { item: string; judgement: string; v: number }[]
      const ada = rows.filter((r) => JSON.parse(r.judgement).rationale?.startsWith('Scored'))
      expect(ada).toHaveLength(3)
      expect(ada.every((r) => r.v === 1)).toBe(true)
      expect(JSON.parse(ada.find((r) => r.item === 'i1')!.judgement)).toMatchObject({ novelty: 8, excitement: 8, feasibility: 6, verdict: 'accept' })
    } finally {
      project.close()
    }
  })

  it('asks a judge the prompt derived from the fields and parses its answers', async () => {
    process.env.OPENAI_API_KEY = KEYS.openai
    const r = await runCli('judge', path, '--instrument', 'idea-study', '--provider', 'openai', '--model', 'gpt-4.1-mini', '--base-url', fake.url('openai'), '--json')
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout).counts).toMatchObject({ total: 3, ok: 3, unparseable: 0 })
    const first = fake.requestsTo('openai.chat')[0]!.body as { messages: { role: string; content: string }[] }
    const user = first.messages.find((m) => m.role === 'user')!.content
    expect(user).toContain('"novelty" (Novelty): a whole number from 1 to 10. How different the idea is from existing work. 1 = not novel; 10 = very novel.')
    expect(user).toContain('"verdict" (Overall): one of "reject", "borderline", "accept".')
    // The model sees the text as an annotator does: no id, title column or origin.
    expect(user).not.toContain('Cold atoms')
  })

  it('reports agreement over the declared fields at their measurement levels', async () => {
    const r = await runCli('report', path, '--instrument', 'idea-study', '--json')
    expect(r.code, r.stderr).toBe(0)
    const report = JSON.parse(r.stdout) as {
      instrument: { id: string; versions: number[] }
      summary: { source: string; field: string; level: string; agreement: { statistic: string; value: number | null } | null; human_ceiling: { n_annotators: number; value: number | null } | null }[]
    }
    expect(report.instrument).toMatchObject({ id: 'idea-study', versions: [1] })
    const rows = new Map(report.summary.filter((s) => s.source === 'run:1').map((s) => [s.field, s]))
    // Every scale and the ordered choice at the ordinal level: weighted kappa against the two experts' majority, and
    // the experts' own agreement as the ceiling. The text is not compared.
    expect([...rows.keys()].sort()).toEqual(['excitement', 'feasibility', 'novelty', 'verdict'])
    for (const row of rows.values()) {
      expect(row.level).toBe('ordinal')
      expect(row.agreement?.statistic).toBe('weighted_kappa_quadratic')
      expect(row.human_ceiling?.n_annotators).toBe(2)
    }
    // The experts agree on the verdict and on feasibility, and so does the judge.
    expect(rows.get('verdict')!.agreement!.value).toBe(1)
    expect(rows.get('feasibility')!.agreement!.value).toBe(1)
    expect(rows.get('novelty')!.agreement!.value).toBeGreaterThan(0.9)
  })
})
