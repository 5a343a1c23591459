import Database from 'better-sqlite3'
import type { Browser, Page, Route } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumSuite, hasChromium, launchChromium } from '../support/browser'
import { spawnCli } from '../support/cli'
import { serveProject, type ServedProject } from '../support/serve'
import { tempDir } from '../support/tmp'

// Submitting shows the next item at once and commits in the background: "saved" only once main has the answer, and
// a refused commit brings the person back to that item with the answer on screen and main's message.

const tmp = tempDir()
const path = tmp.file('commit.assay')
let server: ServedProject
let browser: Browser
let page: Page
const itemRequests: number[] = []

function storedVerdicts(): Map<number, string> {
  const db = new Database(path, { readonly: true })
  try {
    const rows = db.prepare(`SELECT assignment_id, judgement FROM annotations WHERE assignment_id IS NOT NULL AND retracted = 0`).all() as Array<{ assignment_id: number; judgement: string }>
    return new Map(rows.map((r) => [r.assignment_id, (JSON.parse(r.judgement) as { verdict: string }).verdict]))
  } finally {
    db.close()
  }
}

/** What the keyboard can reach in an item. */
const reachable = 'a[href], button, input, select, textarea, [tabindex]'

const shown = async () => Number(await page.locator('[data-testid=item]').getAttribute('data-assignment'))

beforeAll(async () => {
  if (!hasChromium) return
  expect(spawnCli(['new', path, '--demo']).code).toBe(0)
  expect(spawnCli(['annotators', 'add', path, 'Ann']).code).toBe(0)
  expect(spawnCli(['assign', path, '--instrument', 'pairwise-preference', '--annotators', 'Ann', '--overlap', '1']).code).toBe(0)
  server = await serveProject(path, ['--annotator', 'Ann'])
  browser = await launchChromium()
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
  page.setDefaultTimeout(10_000)
  page.on('request', (req) => {
    if (req.url().includes('/api/queue.item')) itemRequests.push((JSON.parse(req.postData() ?? '{}') as { assignmentId: number }).assignmentId)
  })
  await page.goto(server.url)
  await page.locator('[data-testid=queue]').first().waitFor()
  await page.keyboard.press('1')
  await page.locator('[data-testid=item]').waitFor()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  tmp.cleanup()
})

describe.skipIf(!hasChromium)(chromiumSuite('answers committed in the background'), () => {
  it('shows the next item before main answers, and marks the answer saved only when main has it', async () => {
    const first = await shown()
    // The next three items' blinded views are fetched while the first is on screen.
    await expect.poll(() => new Set(itemRequests.filter((id) => id !== first)).size).toBe(3)
    // Hold main's answer back until the next item is on screen.
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    await page.route('**/api/annotations.submit', async (route: Route) => {
      await held
      await route.continue()
    })
    await page.keyboard.press('1')
    await page.waitForSelector('[data-testid=item] [data-stop="verdict"] [aria-checked="true"]')
    await page.keyboard.press('Control+Enter')
    await page.waitForFunction((id) => document.querySelector('[data-testid=item]')?.getAttribute('data-assignment') !== String(id), first)
    expect(await page.locator('[data-testid=commit-status]').getAttribute('data-state')).toBe('saving')
    expect(storedVerdicts().has(first)).toBe(false)
    release()
    await page.locator(`[data-testid=commit-status][data-assignment="${first}"][data-state="saved"]`).waitFor()
    await page.unroute('**/api/annotations.submit')
    expect(storedVerdicts().has(first)).toBe(true)
  })

  it('takes the person back to an item whose commit failed, with the answer intact and a clear message', async () => {
    const second = await shown()
    await page.route('**/api/annotations.submit', (route: Route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ ok: false, error: { code: 'internal', message: 'disk I/O error' } }) })
    )
    await page.keyboard.press('3')
    const chosen = await page.getByTestId('item').locator('[data-stop="verdict"] [aria-checked="true"]').innerText()
    await page.keyboard.press('Control+Enter')
    // Back on the same item (a new mount), with the choice still made and main's message beside the form.
    await page.locator(`[data-testid=commit-status][data-assignment="${second}"][data-state="failed"]`).waitFor()
    await page.locator(`[data-testid=item][data-assignment="${second}"]`).waitFor()
    expect(await page.getByTestId('item').locator('[data-testid=form-error]').innerText()).toBe('Not saved: disk I/O error')
    expect(await page.locator('[data-testid=notice]').innerText()).toMatch(/was not saved \(disk I\/O error\); it is back on screen to submit again/)
    expect(await page.getByTestId('item').locator('[data-stop="verdict"] [aria-checked="true"]').innerText()).toBe(chosen)
    expect(await page.getByTestId('item').locator('[data-testid=item-status]').innerText()).toBe('pending')
    expect(storedVerdicts().has(second)).toBe(false)

    // Main works again: the same answer goes through and is acknowledged.
    await page.unroute('**/api/annotations.submit')
    await page.keyboard.press('Control+Enter')
    await page.locator(`[data-testid=commit-status][data-assignment="${second}"][data-state="saved"]`).waitFor()
    expect(await shown()).not.toBe(second)
    expect(storedVerdicts().has(second)).toBe(true)
  })

  it('builds the next item behind the one on screen, out of reach, and shows that very element on submitting', async () => {
    const now = await shown()
    // The next pending item is built ahead: in the page, but transparent, underneath, hidden from assistive
    // technology, and out of reach of the keyboard and the mouse.
    const held = page.getByTestId('item-held')
    await held.waitFor({ state: 'attached' })
    const next = Number(await held.getAttribute('data-assignment'))
    expect(next).not.toBe(now)
    const slot = held.locator('xpath=..')
    expect(await slot.getAttribute('aria-hidden')).toBe('true')
    expect(await slot.evaluate((el) => getComputedStyle(el).opacity)).toBe('0')
    expect(await page.getByRole('button', { name: /^Submit/ }).count()).toBe(1)
    // Focus that reaches it (Tab past the last control of the item shown, or a script) does not stay there.
    expect(await held.evaluate((el) => {
      el.querySelector<HTMLElement>('button, input, textarea, [tabindex]')!.focus()
      return el.contains(document.activeElement)
    })).toBe(false)
    await page.getByTestId('item').evaluate((el) => {
      const tabbable = [...el.querySelectorAll<HTMLElement>('button, input, textarea, select, [tabindex]:not([tabindex="-1"])')].filter((e) => e.checkVisibility())
      tabbable[tabbable.length - 1]!.focus()
    })
    await page.keyboard.press('Tab')
    expect(await held.evaluate((el) => el.contains(document.activeElement))).toBe(false)
    expect(await held.evaluate((el, sel) => [...el.querySelectorAll<HTMLElement>(sel)].every((c) => c.tabIndex === -1), reachable)).toBe(true)
    // A click where its buttons are lands on the item shown.
    const box = (await held.getByRole('button', { name: /^Submit/, includeHidden: true }).boundingBox())!
    const hit = await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest('[data-testid=item], [data-testid=item-held]')?.getAttribute('data-testid'), [box.x + box.width / 2, box.y + box.height / 2])
    expect(hit).toBe('item')
    // Back to the first field of the item shown.
    await page.getByTestId('item').evaluate((el) => (el.querySelector<HTMLElement>('[data-stop="verdict"] [data-primary]') ?? el.querySelector<HTMLElement>('[data-stop="verdict"]'))!.focus())
    // Keys answer the item on screen only.
    await page.keyboard.press('2')
    await page.getByTestId('item').locator('[data-stop="verdict"] [aria-checked="true"]').waitFor()
    expect(await held.locator('[aria-checked="true"]').count()).toBe(0)
    // Time spent built but unseen is not active time.
    await page.waitForTimeout(1500)
    await held.evaluate((el) => el.setAttribute('data-built-ahead', ''))
    await page.keyboard.press('Control+Enter')
    const shownNow = page.locator(`[data-testid=item][data-assignment="${next}"]`)
    await shownNow.waitFor()
    // The same element, not one built on the key; once the frame that shows it is painted, it has the focus and its
    // controls are back in the tab order; its clock starts then.
    expect(await shownNow.getAttribute('data-built-ahead')).toBe('')
    await expect.poll(() => shownNow.evaluate((el) => el.contains(document.activeElement))).toBe(true)
    expect(await shownNow.evaluate((el, sel) => [...el.querySelectorAll<HTMLElement>(sel)].some((c) => c.tabIndex >= 0), reachable)).toBe(true)
    expect(await shownNow.locator('.active-time').innerText()).toBe('active 0s')
    await page.locator(`[data-testid=commit-status][data-assignment="${now}"][data-state="saved"]`).waitFor()
    expect(storedVerdicts().has(now)).toBe(true)
    // The item left is gone, and the one after is built in turn.
    await expect.poll(() => page.locator(`.annotate-item[data-assignment="${now}"]`).count()).toBe(0)
    await expect.poll(async () => Number(await page.getByTestId('item-held').getAttribute('data-assignment'))).not.toBe(next)
  })
  it('gives a key pressed the moment the next item is drawn to that item, not to the one left', async () => {
    await page.getByTestId('item-held').waitFor({ state: 'attached' })
    const from = await shown()
    const next = Number(await page.getByTestId('item-held').getAttribute('data-assignment'))
    await page.keyboard.press('1')
    await page.getByTestId('item').locator('[data-stop="verdict"] [aria-checked="true"]').waitFor()
    const left = await page.getByTestId('item').locator('[data-stop="verdict"] [aria-checked="true"]').innerText()
    // The submit key, then (once the next item is drawn, before that frame is painted) another answer key, aimed
    // where the focus still is: the item left. Drawing the item moves no focus (that would repaint both items in
    // the frame that shows it); the key moves it, and is then sent where the focus is.
    const state = await page.evaluate(async () => {
      const key = (to: EventTarget, init: KeyboardEventInit) => to.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init }))
      key(document, { key: 'Enter', ctrlKey: true })
      await Promise.resolve()
      const item = document.querySelector('[data-testid=item]')!
      const aimed = document.activeElement!
      const drawn = { assignment: item.getAttribute('data-assignment'), focusLeftBehind: !item.contains(aimed) && aimed !== document.body }
      const answered = !key(aimed, { key: '2' })
      return { ...drawn, answered, focusNow: item.contains(document.activeElement) }
    })
    expect(state).toEqual({ assignment: String(next), focusLeftBehind: true, answered: true, focusNow: true })
    await page.locator(`[data-testid=commit-status][data-assignment="${from}"][data-state="saved"]`).waitFor()
    // The second key answered the item shown; the answer committed for the one left is the one it had.
    const now = page.locator(`[data-testid=item][data-assignment="${next}"]`)
    expect(await now.locator('[data-stop="verdict"] [aria-checked="true"]').count()).toBe(1)
    expect(await now.locator('[data-stop="verdict"] [aria-checked="true"]').innerText()).not.toBe(left)
    expect(storedVerdicts().get(from)).toBeDefined()
  })
})
