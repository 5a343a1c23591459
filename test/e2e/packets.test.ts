import { existsSync, readFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adjudicatedLabels } from '../../src/main/adjudication'
import { assignmentContext } from '../../src/main/annotation/blinded'
import { gatherReportInput } from '../../src/main/report/gather'
import { projectReport } from '../../src/main/report/report'
import { appendAnnotation } from '../../src/main/store/annotations'
import { insertItems } from '../../src/main/store/items'
import { setMeta } from '../../src/main/store/meta'
import { Project } from '../../src/main/store/project'
import { hasChromium, launchChromium, chromiumSuite } from '../support/browser'
import { spawnCli } from '../support/cli'
import { serveProject, type ServedProject } from '../support/serve'
import { tempDir } from '../support/tmp'
import { annotatorSession, call, ctxFor, MARK, markedPairs, SEED } from '../integration/packets/support'

// Offline annotation end to end: two packets with overlapping items are exported with the CLI, each is annotated in
// the browser with the real annotation screens (keyboard only) served by `assay serve <packet>`, both are merged back
// (twice), the disagreements are adjudicated through the HTTP contract of a curator server, and labels are exported.

const MIRROR: Record<string, string> = { a_much_better: 'b_much_better', a_better: 'b_better', b_better: 'a_better', b_much_better: 'a_much_better' }
const KEY_OF: Record<string, string> = { a_much_better: '1', a_better: '2', b_better: '3', b_much_better: '4' }

/** Canonical verdicts per pair. Pairs 0–3 go to both; of 4 and 5 each gets one (seeded). */
const PLAN: Record<'Ada' | 'Ben', Record<number, string>> = {
  // 0: same winner · 1: different winner · 2: three steps apart · 3: same verdict
  Ada: { 0: 'a_better', 1: 'a_better', 2: 'a_much_better', 3: 'b_better', 4: 'a_better', 5: 'a_better' },
  Ben: { 0: 'a_much_better', 1: 'b_better', 2: 'b_much_better', 3: 'b_better', 4: 'b_better', 5: 'b_better' }
}

function cli(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnCli(args)
  if (r.code !== 0) throw new Error(`assay ${args.join(' ')} failed (${r.code}): ${r.stderr}`)
  return r
}

function bytesOf(path: string): Buffer {
  return Buffer.concat([path, `${path}-wal`].filter((p) => existsSync(p)).map((p) => readFileSync(p)))
}

describe.skipIf(!hasChromium)(chromiumSuite('offline packets: export, annotate in the browser, merge twice, adjudicate, export labels'), () => {
  const tmp = tempDir('assay-packets-e2e-')
  const main = tmp.file('study.assay')
  const packets = { Ada: tmp.file('packet-ada.assay'), Ben: tmp.file('packet-ben.assay') }
  const packetIds: Record<string, string> = {}
  let browser: Browser
  let page: Page
  let server: ServedProject | undefined

  beforeAll(async () => {
    const project = await Project.create(main)
    const pairs = markedPairs(6).map((p, n) => ({ ...p, set: n < 4 ? 'shared' : 'solo' }))
    project.write((db) => {
      setMeta(db, 'seed', SEED)
      insertItems(db, pairs)
    })
    const curator = ctxFor(project)
    await call(curator, 'assignments.create', { instrument: 'pairwise-preference', annotators: ['Ada', 'Ben'], overlap: 2, set: 'shared' })
    await call(curator, 'assignments.create', { instrument: 'pairwise-preference', annotators: ['Ada', 'Ben'], overlap: 1, set: 'solo' })
    // Cy audits flaws in the workbench (the marker in a note); a judge and an imported label carry it too.
    await call(curator, 'assignments.create', { instrument: 'flaw-audit', annotators: ['Cy'], overlap: 1, set: 'shared' })
    const cy = ctxFor(project, annotatorSession(project, 'Cy'))
    for (const row of (await call(cy, 'queue.list', { instrument: 'flaw-audit' })).rows as Array<{ assignmentId: number }>) {
      await call(cy, 'annotations.submit', { assignmentId: row.assignmentId, judgement: { flaws: [], no_flaws_found: true, comment: `${MARK}-other-annotator` }, activeMs: 1 })
    }
    project.write((db) => {
      const judge = Number(db.prepare(`INSERT INTO judges (name, provider, model) VALUES (?, 'openai', 'm')`).run(`${MARK}-judge`).lastInsertRowid)
      const run = Number(
        db.prepare(`INSERT INTO runs (instrument_id, judge_id, template_id, template_version, seed) VALUES ('pairwise-preference', ?, 'pairwise-ranker', 1, 's')`).run(judge).lastInsertRowid
      )
      for (const { id } of db.prepare(`SELECT id FROM items`).all() as Array<{ id: number }>) {
        db.prepare(`INSERT INTO model_calls (run_id, item_id, request_hash, prompt, raw_answer, status) VALUES (?, ?, ?, '{}', ?, 'ok')`).run(run, id, `h${id}`, `${MARK}-judge-output`)
        appendAnnotation(db, { itemId: id, instrumentId: 'pairwise-preference', instrumentVersion: 1, annotatorId: null, sourceKind: 'reference', sourceName: `${MARK}-label`, judgement: { verdict: 'a_better' }, origin: 'import' })
      }
    })
    // A seed (still carrying the marker) under which the pairs are shown swapped to some and not to others, so both
    // directions of the mapping back are exercised.
    const assigned = project.db.prepare(`SELECT s.id, a.id AS annotator_id, a.name FROM assignments s JOIN annotators a ON a.id = s.annotator_id WHERE s.instrument_id = 'pairwise-preference'`).all() as Array<{ id: number; annotator_id: number; name: string }>
    for (let n = 0; n < 100; n++) {
      project.write((db) => setMeta(db, 'seed', `${SEED}x${n}`))
      const swaps = assigned.map((s) => assignmentContext(project, { id: s.annotator_id, name: s.name }, s.id).blind.display.swapped === true)
      if (swaps.includes(true) && swaps.includes(false)) break
    }
    project.close()
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    tmp.cleanup()
  })

  it('exports two packets with overlapping items from the CLI; neither holds a hidden marker', () => {
    for (const name of ['Ada', 'Ben'] as const) {
      const r = cli(['packet', 'export', main, '--annotator', name, '--instrument', 'pairwise-preference', '--out', packets[name], '--json'])
      const result = JSON.parse(r.stdout) as { packetId: string; assignments: number }
      expect(result.assignments).toBe(5)
      packetIds[name] = result.packetId
    }
    expect(bytesOf(main).includes(MARK)).toBe(true)
    for (const path of Object.values(packets)) {
      const bytes = bytesOf(path)
      expect(bytes.includes(MARK)).toBe(false)
      expect(bytes.includes(SEED)).toBe(false)
      expect(bytes.includes('swapped')).toBe(false)
      expect(bytes.includes('Topic 2')).toBe(true)
    }
  })

  /** Works through the packet's one queue in the browser, giving each pair its planned canonical verdict. */
  async function annotate(name: 'Ada' | 'Ben'): Promise<Map<number, string>> {
    server = await serveProject(packets[name])
    await page.goto(server.url)
    expect(await page.locator('[data-testid=session]').innerText()).toContain(`Annotating as ${name}`)
    // A packet session is locked: no curator screens, no switching back.
    expect(await page.getByRole('button', { name: 'Switch to curator' }).count()).toBe(0)
    await page.locator('[data-testid=queue]').first().waitFor()
    await page.keyboard.press('1')
    const given = new Map<number, string>()
    for (;;) {
      const item = page.locator('[data-testid=item]')
      await page.waitForSelector('[data-testid=item], [data-testid=queue-finished]')
      if (await page.locator('[data-testid=queue-finished]').count()) break
      const id = Number(await item.getAttribute('data-assignment'))
      const topic = (await item.locator('.pair-topic').innerText()).trim()
      const pair = Number(/^Topic (\d+)$/.exec(topic)![1])
      const source = await item.locator('[data-testid=source]').innerText()
      // The side the annotator sees on the left: the packet knows only the display, the page shows which text.
      const swapped = source.indexOf(`proposal B in pair ${pair}`) < source.indexOf(`proposal A in pair ${pair}`)
      const canonical = PLAN[name][pair]!
      const shown = swapped ? MIRROR[canonical]! : canonical
      await page.keyboard.press(KEY_OF[shown]!)
      await item.locator('[data-stop="verdict"] [aria-checked="true"]').waitFor()
      await page.keyboard.press('Control+Enter')
      await page.waitForFunction(
        (from) => {
          const el = document.querySelector('[data-testid=item]')
          return el ? el.getAttribute('data-assignment') !== String(from) : document.querySelector('[data-testid=queue-finished]') !== null
        },
        id
      )
      // The next item shows before main commits: wait for the acknowledgement before counting the answer as given.
      await page.locator(`[data-testid=commit-status][data-assignment="${id}"][data-state="saved"]`).waitFor()
      given.set(pair, shown)
    }
    return given
  }

  it('annotates both packets in the browser; Ada withdraws and re-gives her last answer', async () => {
    const ada = await annotate('Ada')
    expect([...ada.keys()].filter((p) => p < 4).sort()).toEqual([0, 1, 2, 3])
    expect(ada.size).toBe(5)
    // Ctrl+Z withdraws the last submission (kept in the packet's history); submitting again makes a third revision.
    await page.keyboard.press('Control+z')
    const reopened = page.locator('[data-testid=item]')
    await reopened.waitFor()
    expect(await reopened.locator('[data-testid=item-status]').innerText()).toBe('pending')
    const assignment = await reopened.getAttribute('data-assignment')
    await page.keyboard.press('Control+Enter')
    await page.waitForFunction((from) => document.querySelector('[data-testid=item]')?.getAttribute('data-assignment') !== from, assignment)
    await page.locator(`[data-testid=commit-status][data-assignment="${assignment}"][data-state="saved"]`).waitFor()
    await server!.stop()
    const ben = await annotate('Ben')
    expect([...ben.keys()].filter((p) => p < 4).sort()).toEqual([0, 1, 2, 3])
    expect(ben.size).toBe(5)
    // Some answers were given on a swapped screen, some not.
    const shownAsIs = [...ada].map(([p, v]) => v === PLAN.Ada[p]).concat([...ben].map(([p, v]) => v === PLAN.Ben[p]))
    expect(shownAsIs).toContain(true)
    expect(shownAsIs).toContain(false)
    // The two solo pairs went one to each.
    expect([...ada.keys(), ...ben.keys()].filter((p) => p >= 4).sort()).toEqual([4, 5])
    await server!.stop()
    server = undefined
    // Work in a packet stays blind at rest too.
    for (const path of Object.values(packets)) expect(bytesOf(path).includes(MARK)).toBe(false)
  })

  it('merges both packets; merging them again changes nothing', async () => {
    const first = JSON.parse(cli(['packet', 'merge', main, packets.Ada, packets.Ben, '--json']).stdout) as { packets: Array<Record<string, unknown>> }
    expect(first.packets).toEqual([
      expect.objectContaining({ annotator: 'Ada', added: 7, alreadyPresent: 0, rebased: 0 }),
      expect.objectContaining({ annotator: 'Ben', added: 5, alreadyPresent: 0, rebased: 0 })
    ])
    const state = async (): Promise<string> => {
      const project = await Project.open(main)
      try {
        const dump = (sql: string) => JSON.stringify(project.db.prepare(sql).all())
        return [dump(`SELECT * FROM annotations ORDER BY rowid`), dump(`SELECT * FROM assignments ORDER BY id`), dump(`SELECT * FROM packets ORDER BY id`)].join('\n')
      } finally {
        project.close()
      }
    }
    const stateBefore = await state()
    const second = JSON.parse(cli(['packet', 'merge', main, packets.Ada, packets.Ben, '--json']).stdout) as { packets: Array<Record<string, unknown>> }
    expect(second.packets).toEqual([
      expect.objectContaining({ annotator: 'Ada', added: 0, alreadyPresent: 7, statusesChanged: 0 }),
      expect.objectContaining({ annotator: 'Ben', added: 0, alreadyPresent: 5, statusesChanged: 0 })
    ])
    expect(await state()).toBe(stateBefore)
  })

  it('adjudicates the disagreements through the HTTP contract of a curator server', async () => {
    server = await serveProject(main)
    await page.goto(server.url)
    const api = (op: string, input: unknown) =>
      page.evaluate(
        async ([name, body]) => {
          const res = await fetch(`/api/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
          return res.json()
        },
        [op, input] as const
      ) as Promise<{ ok: boolean; value: any; error?: { message: string } }>
    const list = await api('adjudication.list', { instrument: 'pairwise-preference' })
    expect(list.ok).toBe(true)
    expect(list.value.counts).toEqual({ compared: 4, disagreements: 2, adjudicated: 0, open: 2 })
    expect(list.value.rows.map((r: any) => r.fields.map((f: any) => f.field))).toEqual([['winner'], ['verdict', 'winner']])
    for (const row of list.value.rows) {
      const item = await api('adjudication.item', { instrument: 'pairwise-preference', itemId: row.itemId })
      expect(item.ok).toBe(true)
      // Named by its imported id and title; nothing else of what the packet hid shows.
      const { externalId, title, ...shown } = item.value
      expect(`${externalId} ${title}`).toContain(MARK)
      expect(JSON.stringify(shown)).not.toContain(MARK)
      expect(item.value.answers.map((a: any) => [a.annotator, a.origin])).toEqual([
        ['Ada', `packet:${packetIds.Ada}`],
        ['Ben', `packet:${packetIds.Ben}`]
      ])
      const bens = item.value.answers[1].judgement
      const recorded = await api('adjudication.record', {
        instrument: 'pairwise-preference',
        itemId: row.itemId,
        judgement: bens,
        reason: 'Ben read the method more carefully',
        curator: 'Eve',
        expectedCurrent: null
      })
      expect(recorded.ok).toBe(true)
    }
    const after = await api('adjudication.list', { instrument: 'pairwise-preference' })
    expect(after.value.counts).toEqual({ compared: 4, disagreements: 2, adjudicated: 2, open: 0 })
    await server.stop()
    server = undefined
  })

  it('exports labels with correct counts and provenance; agreement and final labels reach the audit', async () => {
    const out = tmp.file('labels.jsonl')
    cli(['export', main, 'labels', '--instrument', 'pairwise-preference', '--out', out])
    const records = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { item: string; source: string; source_kind: string; judgement: { verdict: string }; origin: string; revision: number; annotation_id: string; display: { swapped: boolean } })
    const human = records.filter((r) => r.source_kind === 'human')
    expect(human).toHaveLength(10)
    const project = await Project.open(main)
    try {
      for (const r of human) {
        const name = r.source as 'Ada' | 'Ben'
        const pair = Number(/-pair-(\d+)$/.exec(r.item)![1])
        expect(r.origin).toBe(`packet:${packetIds[name]}`)
        // Stored canonical whatever the screen showed, with the display mapping recomputed in the project.
        expect(r.judgement.verdict).toBe(PLAN[name][pair])
        expect(typeof r.display.swapped).toBe('boolean')
      }
      // Ada's last item went through submit, withdraw, submit: the current answer is revision 3.
      expect(human.filter((r) => r.source === 'Ada').map((r) => r.revision).sort()).toEqual([1, 1, 1, 1, 3])
      expect(new Set(human.map((r) => r.annotation_id)).size).toBe(10)

      const finals = adjudicatedLabels(project.db, { instrument: 'pairwise-preference' })
      // Ben's answer adopted from the screen's order is stored as Ben's canonical verdict.
      expect(finals.map((f) => [Number(/-pair-(\d+)$/.exec(f.item)![1]), (f.judgement as { verdict: string }).verdict, f.curator, f.reason])).toEqual([
        [1, PLAN.Ben[1], 'Eve', 'Ben read the method more carefully'],
        [2, PLAN.Ben[2], 'Eve', 'Ben read the method more carefully']
      ])
      for (const f of finals) {
        const basis = human.filter((r) => r.item === f.item).map((r) => r.annotation_id)
        expect(f.based_on.sort()).toEqual(basis.sort())
      }

      // Inter-annotator agreement: Ada and Ben overlap on four pairs and agree on the winner of two.
      const report = projectReport(project.db, { instrument: 'pairwise-preference' })
      const winner = report.ceiling.find((c) => c.field === 'winner')!
      expect(winner.human_human.n_pairs).toBe(1)
      expect(winner.human_human.pairs[0]).toMatchObject({ n: 4 })
      expect(winner.human_human.pairs[0]!.stats.accuracy).toBeCloseTo(0.5, 10)
      // The final labels are the audit's adjudicated criterion.
      const adjudicated = gatherReportInput(project.db, { instrument: 'pairwise-preference' }).sources.find((src) => src.kind === 'adjudicated')!
      expect(adjudicated.calls).toHaveLength(2)
    } finally {
      project.close()
    }
  })
})
