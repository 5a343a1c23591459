import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { hasChromium, launchChromium, chromiumSuite } from '../../support/browser'
import { serveProject, type ServedProject } from '../../support/serve'
import { spawnCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'

const tmp = tempDir()
let first: ServedProject
let second: ServedProject
let browser: Browser
let context: BrowserContext

async function projectInfo(page: Page): Promise<{ status: number; body: { ok: boolean } }> {
  return page.evaluate(async () => {
    const res = await fetch('/api/project.info', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', credentials: 'same-origin' })
    return { status: res.status, body: (await res.json()) as { ok: boolean } }
  })
}

describe.skipIf(!hasChromium)(chromiumSuite('two browser-mode servers in one browser'), () => {
  beforeAll(async () => {
    for (const name of ['one', 'two']) expect(spawnCli(['new', tmp.file(`${name}.assay`)]).code).toBe(0)
    first = await serveProject(tmp.file('one.assay'))
    second = await serveProject(tmp.file('two.assay'))
    browser = await launchChromium()
    context = await browser.newContext()
  })
  afterAll(async () => {
    await browser?.close()
    await first?.stop()
    await second?.stop()
    tmp.cleanup()
  })

  it('keeps each server’s token apart: the first tab still works after the second server is opened', async () => {
    const a = await context.newPage()
    await a.goto(first.url)
    expect(await projectInfo(a)).toMatchObject({ status: 200, body: { ok: true } })
    const b = await context.newPage()
    await b.goto(second.url)
    expect(await projectInfo(b)).toMatchObject({ status: 200, body: { ok: true } })
    expect(await projectInfo(a)).toMatchObject({ status: 200, body: { ok: true } })
    const names = (await context.cookies()).map((c) => c.name).sort()
    expect(names).toEqual([`assay_token_${new URL(first.url).port}`, `assay_token_${new URL(second.url).port}`].sort())
  })

  it('takes the token out of the address bar and the history entry after load', async () => {
    const page = await context.newPage()
    await page.goto(first.url)
    await expect.poll(() => page.url()).toBe(`${first.origin}/`)
    expect(await page.evaluate('window.location.search')).toBe('')
    // Reloading the cleaned address still works: the cookie carries the token.
    await page.reload()
    expect(await projectInfo(page)).toMatchObject({ status: 200, body: { ok: true } })
  })
})
