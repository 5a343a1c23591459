import { randomBytes } from 'node:crypto'
import Database from 'better-sqlite3'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api/dispatch'
import { assignmentContext } from '../../src/main/annotation/blinded'
import { loadDemo } from '../../src/main/demo/load-demo'
import { insertItems, type NewItem } from '../../src/main/store/items'
import { setMeta } from '../../src/main/store/meta'
import { Project } from '../../src/main/store/project'
import { hasChromium, launchChromium, chromiumSuite } from '../support/browser'
import { contextFor } from '../support/project'
import { serveProject, type ServedProject } from '../support/serve'
import { tempDir } from '../support/tmp'

// An annotator works through the blind annotation screens in Chromium with the keyboard only, against the real
// `assay serve` and a real project file; afterwards the file is read directly. The only non-keyboard step is one
// text selection made with the page's selection API (to show that a selection outside the proposal is refused);
// evidence itself is chosen with the keyboard quote picker.

const MARK = `HIDDEN-MARKER-${randomBytes(6).toString('hex')}`
/** Shown on screen (the topic): proves the planted items did reach the page, so the absence of MARK means something. */
const VISIBLE = `VISIBLE-TOPIC-${randomBytes(4).toString('hex')}`
const ANNOTATOR = 'Ada'

function proposal(title: string, intro: string, approach: string): string {
  const sections = ['Related Work', 'Experiments', 'Success Criteria', 'Impact Statement', 'References']
  return [`# ${title}`, '', '## Introduction', '', intro, '', '## Proposed Approach', '', approach, '', ...sections.flatMap((s) => [`## ${s}`, '', `${s} of this plan: TBD.`, ''])].join('\n')
}

/** Items whose hidden fields (origin, generator, company, citations, labels, probe, titles, ids) carry MARK. */
function plantedItems(): NewItem[] {
  const pair: NewItem = {
    kind: 'proposal-pair',
    externalId: `${MARK}-pair`,
    set: 'probe',
    split: 'test',
    payload: {
      pair_id: `${MARK}-pair`,
      topic: VISIBLE,
      cohort: `${MARK}-cohort`,
      cutoff_date: `${MARK}-cutoff`,
      label: `${MARK}-label`,
      label_source: `${MARK}-label-source`,
      probe: `${MARK}-probe`,
      a: {
        markdown: proposal(`${MARK} title A`, 'Audits of extracted claims are spread uniformly over confidence strata.', 'We sample every stratum at the same rate and count the errors found.'),
        title: `${MARK}-title-a`,
        origin: `${MARK}-origin-a`,
        generator: null,
        citations: 987654321
      },
      b: {
        markdown: proposal(`${MARK} title B`, 'Audit effort should follow the error mass of each stratum.', 'The closed-form allocation is provably optimal for every budget. Each stratum gets audits in proportion to its errors.'),
        title: `${MARK}-title-b`,
        origin: `${MARK}-origin-b`,
        generator: `${MARK}-generator`,
        company: `${MARK}-company`,
        citations: null
      }
    }
  }
  const task: NewItem = {
    kind: 'rediscovery-task',
    externalId: 'probe-task',
    set: 'probe',
    split: 'none',
    payload: {
      task_id: 'probe-task',
      background: 'Worms live longer when a signalling pathway is dampened.',
      question: 'Which change in the worm extends its life?',
      subject: `${MARK}-subject`,
      finding: 'Reducing insulin-like signalling extends lifespan.',
      key_points: ['insulin-like signalling', 'lifespan'],
      reference_b: { finding: `${MARK}-second-reference`, key_points: [] }
    }
  }
  const set: NewItem = {
    kind: 'hypothesis-set',
    externalId: `${MARK}-set`,
    set: 'probe',
    split: 'none',
    payload: {
      set_id: `${MARK}-set`,
      task_id: 'probe-task',
      generator: `${MARK}-generator`,
      company: `${MARK}-company`,
      scheme: 'single',
      hypotheses: [1, 2, 3, 4, 5].map((n) => ({
        id: `${MARK}-C${n}`,
        statement: `Probe hypothesis number ${n} about worm lifespan.`,
        mechanism: `Mechanism ${n}.`,
        prediction: `Prediction ${n}.`,
        domain_category: `${MARK}-domain`
      }))
    }
  }
  const question: NewItem = {
    kind: 'research-question',
    externalId: `${MARK}-question`,
    set: 'probe',
    split: 'none',
    payload: {
      question_id: `${MARK}-question`,
      question: 'Does dietary restriction in yeast extend replicative lifespan?',
      background: 'Yeast cells divide a limited number of times.',
      reference_answer: 'Restriction extends replicative lifespan through reduced nutrient signalling.',
      generator: `${MARK}-generator`,
      company: `${MARK}-company`
    }
  }
  return [pair, task, set, question]
}

const MIRROR: Record<string, string> = { a_much_better: 'b_much_better', a_better: 'b_better', b_better: 'a_better', b_much_better: 'a_much_better' }
const VERDICT_KEYS: Array<[string, string]> = [
  ['1', 'a_much_better'],
  ['3', 'b_better'],
  ['2', 'a_better'],
  ['4', 'b_much_better']
]

interface AnnotationRow {
  id: string
  assignment_id: number
  judgement: string
  display: string
  retracted: number
  supersedes: string | null
  active_ms: number | null
}

describe.skipIf(!hasChromium)(chromiumSuite('blind annotation in the browser, keyboard only'), () => {
  const tmp = tempDir('assay-annotate-')
  const path = tmp.file('study.assay')
  let server: ServedProject
  let browser: Browser
  let page: Page
  const bodies: Array<Promise<string>> = []
  const doms: string[] = []
  /** Display order of each of Ada's pairwise assignments. */
  const swappedOf = new Map<number, boolean>()
  /** Assignment ids of every queue.item request, in order: shows what was fetched ahead. */
  const itemRequests: number[] = []

  const rows = (sql: string, ...params: unknown[]) => {
    const db = new Database(path, { readonly: true, fileMustExist: true })
    try {
      return db.prepare(sql).all(...params)
    } finally {
      db.close()
    }
  }
  const annotationsOf = (instrument: string) =>
    rows(`SELECT a.* FROM annotations a JOIN annotators p ON p.id = a.annotator_id WHERE p.name = ? AND a.instrument_id = ? ORDER BY a.created_at, a.rowid`, ANNOTATOR, instrument) as AnnotationRow[]
  /** The standing answers: not withdrawn and not superseded. */
  const currentAnswers = (instrument: string) => {
    const all = annotationsOf(instrument)
    const superseded = new Set(all.map((r) => r.supersedes).filter(Boolean))
    return all.filter((r) => !r.retracted && !superseded.has(r.id))
  }

  async function start(): Promise<void> {
    server = await serveProject(path, ['--annotator', ANNOTATOR])
    await page.goto(server.url)
    await page.locator('[data-testid=queue]').first().waitFor()
  }

  async function snapshot(): Promise<void> {
    doms.push(await page.content())
  }

  async function openQueue(instrument: string): Promise<number> {
    await page.locator('[data-testid=queue]').first().waitFor()
    const order = await page.locator('[data-testid=queue]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.instrument))
    const index = order.indexOf(instrument)
    expect(index).toBeGreaterThanOrEqual(0)
    await page.keyboard.press(String(index + 1))
    const item = page.locator(`[data-testid=item][data-instrument="${instrument}"]`)
    await item.waitFor()
    await snapshot()
    return Number(await item.getAttribute('data-assignment'))
  }

  async function shown(): Promise<number> {
    return Number(await page.locator('[data-testid=item]').getAttribute('data-assignment'))
  }

  /** Ctrl+Enter, then waits until another item (or the end of the queue) is on screen and main has the answer. */
  async function submitAndMoveOn(from: number): Promise<void> {
    await page.keyboard.press('Control+Enter')
    await page.waitForFunction((id) => {
      const item = document.querySelector('[data-testid=item]')
      return item ? item.getAttribute('data-assignment') !== String(id) : document.querySelector('[data-testid=queue-finished]') !== null
    }, from)
    // The next item shows before main commits; only an acknowledged answer counts as kept (the kill test relies on it).
    await page.locator(`[data-testid=commit-status][data-assignment="${from}"][data-state="saved"]`).waitFor()
    await snapshot()
  }

  /** Types into the text box the last key moved to (waits until focus is in one). */
  async function typeText(text: string): Promise<void> {
    await page.waitForFunction(() => ['TEXTAREA', 'INPUT'].includes(document.activeElement?.tagName ?? ''))
    await page.keyboard.type(text)
  }

  async function cursor(): Promise<string> {
    return (await page.getByTestId('item').locator('form.annotate-fields').getAttribute('data-cursor')) ?? ''
  }

  async function issuesAt(path: string): Promise<string[]> {
    return page.getByTestId('item').locator(`[data-testid=field-issue][data-path="${path}"]`).allInnerTexts()
  }

  beforeAll(async () => {
    const project = await Project.create(path)
    await loadDemo(project)
    project.write((db) => insertItems(db, plantedItems()))
    const ctx = contextFor(project)
    const assign = async (instrument: string, set: string, annotators: string[]) => {
      const res = await dispatch(ctx, 'assignments.create', { instrument, annotators, overlap: 1, set })
      if (!res.ok) throw new Error(res.error.message)
    }
    // Four annotators share the twelve demo pairs, so Ada gets three of them, plus the planted pair.
    await assign('pairwise-preference', 'demo-pairs', [ANNOTATOR, 'Bo', 'Cy', 'Di'])
    await assign('pairwise-preference', 'probe', [ANNOTATOR])
    await assign('flaw-audit', 'probe', [ANNOTATOR])
    await assign('hypothesis-match', 'probe', [ANNOTATOR])
    await assign('cue-rating', 'demo-cues', [ANNOTATOR])
    await assign('cue-rating', 'probe', [ANNOTATOR])
    await assign('fs-research-grade', 'demo-frontierscience', [ANNOTATOR])
    // A seed under which Ada sees some pairs swapped and some not, so both directions of the mapping are exercised.
    const ada = project.db.prepare(`SELECT id, name FROM annotators WHERE name = ?`).get(ANNOTATOR) as { id: number; name: string }
    const pairwise = project.db.prepare(`SELECT id FROM assignments WHERE annotator_id = ? AND instrument_id = 'pairwise-preference'`).all(ada.id) as Array<{ id: number }>
    for (let n = 0; n < 100; n++) {
      project.write((db) => setMeta(db, 'seed', `annotate-e2e-${n}`))
      const swaps = pairwise.map((a) => assignmentContext(project, ada, a.id).blind.display.swapped === true)
      if (swaps.includes(true) && swaps.includes(false)) {
        pairwise.forEach((a, i) => swappedOf.set(a.id, swaps[i]!))
        break
      }
    }
    expect(swappedOf.size).toBe(4)
    project.close()

    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    // A step that does not happen fails within seconds, not at the test's time limit.
    page.setDefaultTimeout(8000)
    page.on('request', (req) => {
      if (req.url().includes('/api/queue.item')) itemRequests.push((JSON.parse(req.postData() ?? '{}') as { assignmentId: number }).assignmentId)
    })
    page.on('response', (res) => {
      if (res.url().includes('/api/events')) return
      bodies.push(res.text().catch(() => ''))
    })
    await start()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    tmp.cleanup()
  })

  it('judges the demo pairs and the planted pair; a server killed between submissions loses nothing; Ctrl+Z withdraws', async () => {
    const pressed = new Map<number, string>()
    let current = await openQueue('pairwise-preference')

    // Alt+→ and Alt+← step through the queue; ] and [ scroll both proposals to the next or previous section.
    await page.keyboard.press('Alt+ArrowRight')
    await page.waitForFunction((id) => document.querySelector('[data-testid=item]')?.getAttribute('data-assignment') !== String(id), current)
    expect(await page.getByTestId('item').locator('[data-testid=item-position]').innerText()).toBe('Item 2 of 4')
    await page.keyboard.press('Alt+ArrowLeft')
    await page.locator(`[data-testid=item][data-assignment="${current}"]`).waitFor()
    await page.keyboard.press(']')
    await page.keyboard.press(']')
    const scroll = await page.evaluate(() => {
      const box = document.querySelector('[data-testid=item] .annotate-source') as HTMLElement
      const rows = [...box.querySelectorAll<HTMLElement>('[data-section-row]')]
      // A short pair cannot scroll a late section to the very top: it stops at the end.
      // The section lands just below the sticky section bar.
      const bar = box.querySelector<HTMLElement>('.section-bar')?.offsetHeight ?? 0
      const reachable = Math.min(rows[2]!.offsetTop - bar, box.scrollHeight - box.clientHeight)
      return { top: box.scrollTop, section: rows[2]!.dataset.section, rowTop: reachable, cells: rows[2]!.querySelectorAll('.pair-cell').length }
    })
    expect(scroll.section).toBe('Related Work') // Introduction, Proposed Approach, Related Work
    expect(scroll.cells).toBe(2)
    expect(Math.abs(scroll.top - scroll.rowTop)).toBeLessThanOrEqual(1)

    for (let i = 0; i < 4; i++) {
      if (i === 2) {
        // Two answers are in; the server dies without a chance to flush anything.
        await server.stop('SIGKILL')
        await start()
        const counts = await page.locator('[data-testid=queue][data-instrument="pairwise-preference"] [data-testid=queue-counts]').innerText()
        expect(counts).toContain('2 done')
        current = await openQueue('pairwise-preference')
        expect(pressed.has(current)).toBe(false)
      }
      const [key, verdict] = VERDICT_KEYS[i]!
      await page.keyboard.press(key)
      await page.waitForSelector(`[data-testid=item] [data-stop="verdict"] [aria-checked="true"]`)
      pressed.set(current, verdict)
      const fetchedBefore = [...itemRequests]
      await submitAndMoveOn(current)
      if (i < 3) {
        current = await shown()
        // The item now on screen had been fetched ahead, before the answer was submitted.
        expect(fetchedBefore).toContain(current)
      }
    }
    await page.locator('[data-testid=queue-finished]').waitFor()

    const stored = currentAnswers('pairwise-preference')
    expect(stored).toHaveLength(4)
    for (const row of stored) {
      const shownVerdict = pressed.get(row.assignment_id)!
      const display = JSON.parse(row.display) as { swapped: boolean }
      expect(display.swapped).toBe(swappedOf.get(row.assignment_id))
      // Stored in canonical order: a verdict given on a swapped screen is mirrored.
      expect(JSON.parse(row.judgement).verdict).toBe(display.swapped ? MIRROR[shownVerdict] : shownVerdict)
      expect(row.active_ms).toBeGreaterThan(0)
    }

    // Undo the last submission of this session: its answer comes back as a draft, and a new answer supersedes it.
    const last = stored[stored.length - 1]!
    await page.keyboard.press('Control+z')
    await page.locator(`[data-testid=item][data-assignment="${last.assignment_id}"]`).waitFor()
    expect(await page.getByTestId('item').locator('[data-testid=item-status]').innerText()).toBe('pending')
    expect(await page.getByTestId('item').locator('[data-stop="verdict"] [aria-checked="true"]').innerText()).toContain('B much better')
    await page.keyboard.press('h')
    await page.getByTestId('item').locator('[data-testid=revision]').nth(1).waitFor()
    expect(await page.getByTestId('item').locator('[data-testid=revision]').allInnerTexts()).toEqual([expect.stringMatching(/^Withdrawn/), expect.stringMatching(/^Submitted/)])
    await page.keyboard.press('2')
    await submitAndMoveOn(last.assignment_id)
    const history = annotationsOf('pairwise-preference').filter((r) => r.assignment_id === last.assignment_id)
    expect(history.map((r) => r.retracted)).toEqual([0, 1, 0])
    expect(history[1]!.supersedes).toBe(history[0]!.id)
    expect(history[2]!.supersedes).toBe(history[1]!.id)
    const redone = JSON.parse(history[2]!.judgement).verdict
    expect(redone).toBe(swappedOf.get(last.assignment_id) ? 'b_better' : 'a_better')
    await page.keyboard.press('q')
  })

  it('audits flaws: refuses evidence outside the proposal, takes a picked quote and a re-run check', async () => {
    const id = await openQueue('flaw-audit')
    await page.keyboard.press('Enter') // add a flaw
    await page.getByTestId('item').locator('[data-testid=list-entry]').waitFor()
    expect(await cursor()).toBe('flaws.0.side')

    // The evidence picker offers the words verbatim; taking them also sets the side they come from.
    await page.keyboard.press('/')
    await page.locator('[data-testid=quote-picker]').waitFor()
    await page.keyboard.type('provably optimal')
    await page.keyboard.press('Enter')
    await page.locator('[data-testid=quote-picker]').waitFor({ state: 'detached' })
    expect(await page.getByTestId('item').locator('[data-stop="flaws.0.evidence"] textarea').inputValue()).toBe('provably optimal')
    const sideLabel = await page.getByTestId('item').locator('[data-stop="flaws.0.side"] [aria-checked="true"]').innerText()
    const side = sideLabel.includes('A (left)') ? 'a' : 'b'
    const other = side === 'a' ? 'b' : 'a'

    // A selection in the other proposal is not a quote of this flaw's proposal (selection API, then the e key).
    await page.evaluate((cellSide) => {
      const paragraph = document.querySelector(`.pair-cell[data-side="${cellSide}"] p`)!
      const range = document.createRange()
      range.selectNodeContents(paragraph)
      const selection = window.getSelection()!
      selection.removeAllRanges()
      selection.addRange(range)
    }, other)
    await page.keyboard.press('e')
    const shownName = (s: string) => (s === 'a' ? 'the left proposal (A)' : 'the right proposal (B)')
    expect((await issuesAt('flaws.0.evidence')).join(' ')).toBe(`This quote must come from ${shownName(side)}; the selection is in ${shownName(other)}.`)
    expect(await page.getByTestId('item').locator('[data-stop="flaws.0.evidence"] textarea').inputValue()).toBe('provably optimal')

    // Evidence typed by hand that the proposal does not contain: the form refuses to submit.
    await page.keyboard.press('Enter')
    await typeText('')
    await page.keyboard.press('Control+a')
    await page.keyboard.type('a sentence that appears nowhere')
    await page.keyboard.press('Escape')
    await page.keyboard.press('Control+Enter')
    await page.getByTestId('item').locator('[data-testid=form-error]').waitFor()
    expect(await issuesAt('flaws.0.evidence')).toEqual([`Not an exact quote of ${shownName(side)}.`])
    expect(await shown()).toBe(id)

    // The cursor went to the first field that needs attention (the type); answer it and the severity by keys.
    expect(await cursor()).toBe('flaws.0.type')
    await page.keyboard.press('3') // unsound method
    await page.keyboard.press('3') // fatal, then on to the evidence
    expect(await cursor()).toBe('flaws.0.evidence')
    await page.keyboard.press('/')
    await page.keyboard.type('provably optimal')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Tab')
    await typeText('Linear objective; see the check.')
    await page.keyboard.press('Tab')
    await typeText('console.log((6 * 0.4 + 3 * 0.75 + 1 * 0.85).toFixed(2), (6 * 0.4 + 3 * 0.9 + 1 * 0.9).toFixed(2))')
    await page.keyboard.press('Control+Shift+Enter')
    await page.getByTestId('item').locator('[data-testid=check-output]').waitFor()
    expect(await page.getByTestId('item').locator('[data-testid=check-output]').innerText()).toBe('5.50 6.00')
    await submitAndMoveOn(id)

    const [row] = currentAnswers('flaw-audit')
    const judgement = JSON.parse(row!.judgement)
    // "provably optimal" is in the canonical proposal b, whichever side it was shown on.
    expect(judgement.flaws).toHaveLength(1)
    expect(judgement.flaws[0]).toMatchObject({ side: 'b', type: 'unsound_method', severity: 'fatal', evidence: 'provably optimal', note: 'Linear objective; see the check.' })
    expect(judgement.flaws[0].check.output).toBe('5.50 6.00')
    expect(JSON.parse(row!.display).swapped).toBe(side === 'a')
    await page.keyboard.press('q')
  })

  it('grades a hypothesis set unit by unit; a reload mid-item returns to the item with its draft', async () => {
    const id = await openQueue('hypothesis-match')
    // The flaw audit's "saved" mark does not follow the expert into this queue, where it would read as this item's.
    expect(await page.locator('[data-testid=commit-status]').count()).toBe(0)
    const answerUnit = async (i: number) => {
      await page.keyboard.press(String(i)) // match = label index
      await page.keyboard.press(i % 2 === 0 ? 'y' : 'n')
      await page.keyboard.press(String(i + 1)) // plausibility
      await page.keyboard.press('Tab')
      await typeText(`reason ${i + 1}`)
      await page.keyboard.press('Tab')
    }
    await answerUnit(0)
    await answerUnit(1)
    expect(await cursor()).toBe('scores.2.match')
    await page.getByTestId('item').locator('[data-testid=save-state][data-state=saved]').waitFor()

    // A reload returns to the item being worked on, not the queue list, with the draft in place.
    await page.reload()
    await page.locator(`[data-testid=item][data-assignment="${id}"]`).waitFor()
    expect(await page.locator('[data-testid=queue]').count()).toBe(0)
    expect(await page.getByTestId('item').locator('[data-stop="scores.0.match"] .scale').getAttribute('data-value')).toBe('0')
    expect(await page.getByTestId('item').locator('[data-stop="scores.1.match"] .scale').getAttribute('data-value')).toBe('1')
    expect(await page.getByTestId('item').locator('[data-stop="scores.1.compatible"] .options').getAttribute('data-value')).toBe('false')
    expect(await page.getByTestId('item').locator('[data-stop="scores.1.reason"] textarea').inputValue()).toBe('reason 2')
    await page.keyboard.press('J')
    await page.keyboard.press('J')
    expect(await cursor()).toBe('scores.2.match')
    for (const i of [2, 3, 4]) await answerUnit(i)
    await submitAndMoveOn(id)

    const [row] = currentAnswers('hypothesis-match')
    const display = JSON.parse(row!.display) as { order: string[] }
    const scores = JSON.parse(row!.judgement).scores as Array<{ id: string; match: number; compatible: boolean; plausibility: number; reason: string }>
    expect(scores).toHaveLength(5)
    for (const s of scores) {
      // Stored under canonical hypothesis ids; the value given to label P(k) belongs to order[k-1].
      const k = display.order.indexOf(s.id)
      expect(s.id.startsWith(`${MARK}-C`)).toBe(true)
      expect(k).toBeGreaterThanOrEqual(0)
      expect(s).toEqual({ id: s.id, match: k, compatible: k % 2 === 0, plausibility: k + 1, reason: `reason ${k + 1}` })
    }
    await page.keyboard.press('q')
  })

  it('rates a cue, refusing an excerpt that is not in the question; skips and flags with reasons', async () => {
    const id = await openQueue('cue-rating')
    const question = (await page.getByTestId('item').locator('[data-source="question"]').innerText()).trim()
    await page.keyboard.press('1') // score, then on to the excerpt
    expect(await cursor()).toBe('cue_excerpt')
    await page.keyboard.press('j')
    await page.keyboard.press('1') // input score
    await page.keyboard.press('2') // alternative score
    await page.keyboard.press('Tab')
    await typeText('Names the class of the answer.')
    await page.keyboard.press('Tab')
    await typeText('The mediator.')

    // No excerpt although a cue is rated present: the form says so beside the field (and main would refuse it).
    expect(await page.getByTestId('item').locator('[data-stop="cue_excerpt"] [data-requirement=when]').innerText()).toContain('required when a cue is present')
    expect(await page.getByTestId('item').locator('[data-stop="rationale"] [data-requirement]').count()).toBe(0)
    await page.keyboard.press('Control+Enter')
    await page.getByTestId('item').locator('[data-testid=form-error]').waitFor()
    expect(await issuesAt('cue_excerpt')).toEqual(['Required when a cue is present (score 1 or 2).'])
    expect(await cursor()).toBe('cue_excerpt')
    expect(await shown()).toBe(id)

    // An excerpt that is not in the question: refused in the form.
    await page.keyboard.press('Enter')
    await typeText('words the question does not contain')
    await page.keyboard.press('Escape')
    await page.keyboard.press('Control+Enter')
    await page.waitForFunction(() => document.querySelector('[data-testid=item] [data-testid=field-issue][data-path="cue_excerpt"]')?.textContent === 'Not an exact quote of question.')
    expect(await issuesAt('cue_excerpt')).toEqual(['Not an exact quote of question.'])
    expect(await cursor()).toBe('cue_excerpt')

    const excerpt = question.split(/\s+/).slice(1, 4).join(' ')
    await page.keyboard.press('/')
    await page.keyboard.type(excerpt)
    await page.keyboard.press('Enter')
    await submitAndMoveOn(id)
    const [row] = currentAnswers('cue-rating')
    expect(JSON.parse(row!.judgement)).toEqual({ score: 1, input_score: 1, alternative_score: 2, cue_excerpt: excerpt, rationale: 'Names the class of the answer.', hidden: 'The mediator.' })

    const skipped = await shown()
    await page.keyboard.press('s')
    await page.locator('[data-testid=reason-dialog]').waitFor()
    await page.keyboard.type('Outside my field')
    await page.keyboard.press('Enter')
    await page.waitForFunction((sid) => document.querySelector('[data-testid=item]')?.getAttribute('data-assignment') !== String(sid), skipped)
    const flagged = await shown()
    await snapshot()
    await page.keyboard.press('f')
    await page.keyboard.type('The question gives the answer away')
    await page.keyboard.press('Enter')
    await page.waitForFunction((fid) => document.querySelector('[data-testid=item]')?.getAttribute('data-assignment') !== String(fid), flagged)
    await snapshot()
    const statuses = rows(`SELECT id, status, status_reason FROM assignments WHERE id IN (?, ?) ORDER BY id`, skipped, flagged) as Array<{ id: number; status: string; status_reason: string }>
    expect(statuses.find((s) => s.id === skipped)).toMatchObject({ status: 'skipped', status_reason: 'Outside my field' })
    expect(statuses.find((s) => s.id === flagged)).toMatchObject({ status: 'flagged', status_reason: 'The question gives the answer away' })
    await page.keyboard.press('q')
    expect(await page.locator('[data-testid=queue][data-instrument="cue-rating"] [data-testid=queue-counts]').innerText()).toBe('1 done · 1 skipped · 1 flagged · of 4')
  })

  it('refuses rubric points over an item maximum and over 10 in the form', async () => {
    const id = await openQueue('fs-research-grade')
    expect(await cursor()).toBe('points.0')
    await page.keyboard.press('Enter') // into the points box: the item opens outside it
    await typeText('11')
    expect(await page.getByTestId('item').locator('[data-testid=rubric-total]').getAttribute('class')).toContain('over')
    await page.keyboard.press('Control+Enter')
    await page.getByTestId('item').locator('[data-testid=form-error]').waitFor()
    const messages = (await issuesAt('points.0')).join(' ')
    expect(messages).toMatch(/At most [\d.]+ points for this item\./)
    expect(messages).toContain('The points add up to 11, over 10.')
    expect(await shown()).toBe(id)
    expect(currentAnswers('fs-research-grade')).toHaveLength(0)
    await snapshot()
  })

  it('never sends or shows a hidden field', async () => {
    const received = await Promise.all(bodies)
    const everything = [...received, ...doms, await page.content()]
    // The planted items did reach the page, and the marker is in the project file, so its absence is meaningful.
    expect(received.some((b) => b.includes(VISIBLE))).toBe(true)
    expect(received.some((b) => b.includes('Probe hypothesis number 3'))).toBe(true)
    expect(received.some((b) => b.includes('dietary restriction in yeast'))).toBe(true)
    expect((rows(`SELECT count(*) AS n FROM items WHERE instr(payload, ?) > 0`, MARK)[0] as { n: number }).n).toBe(4)
    const leaks = everything.filter((text) => text.includes(MARK))
    expect(leaks.map((t) => t.slice(Math.max(0, t.indexOf(MARK) - 200), t.indexOf(MARK) + 100))).toEqual([])
    expect(everything.some((t) => t.includes('987654321'))).toBe(false)
  })

  it('lets a curator say who is annotating (creating the profile), and switch back', async () => {
    await server.stop()
    server = await serveProject(path)
    await page.goto(server.url)
    await page.getByRole('button', { name: 'Annotate' }).click()
    await page.locator('[data-testid=who-is-annotating]').waitFor()
    await typeText('Zoe')
    await page.keyboard.press('Enter')
    await page.locator('[data-testid=queues]').waitFor()
    expect(await page.locator('[data-testid=session]').innerText()).toContain('Annotating as Zoe')
    // Curator screens are gone while annotating.
    expect(await page.getByRole('button', { name: 'Items' }).count()).toBe(0)
    expect(await page.locator('[data-testid=queues]').innerText()).toContain('Nothing is assigned to you yet.')
    expect(rows(`SELECT name FROM annotators WHERE name = 'Zoe'`)).toHaveLength(1)
    await page.getByRole('button', { name: 'Switch to curator' }).click()
    await page.locator('[data-testid=who-is-annotating]').waitFor()
    expect(await page.locator('[data-testid=session]').innerText()).toBe('Curator')
    expect(await page.getByRole('button', { name: 'Items' }).count()).toBe(1)
  })
})
