import { mkdirSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { contextFor } from '../../support/project'
import { startWebServer, type WebServer } from '../../../src/main/web/server'
import { assignItems } from '../../../src/main/annotation/assign'
import { ensureAnnotator } from '../../../src/main/store/annotators'
import { insertItems, type NewItem } from '../../../src/main/store/items'
import { Project } from '../../../src/main/store/project'
import type { FirstAnswersOptions } from '../../../src/main/web/first-answers'
import { FIRST_ANSWERS_ID, type FirstPage } from '../../../src/shared/contract/first-answers'
import { serveProject } from '../../support/serve'
import { tempDir } from '../../support/tmp'
import { stubRendererDir } from '../../support/web'

// The first item of an annotator's page is parsed (Markdown and KaTeX) for the page, off the request path: a
// proposal with thousands of formulas holds up no other request, and one over the page's budget is left for the
// window to ask for.

const tmp = tempDir()
const servers: Array<{ server: WebServer; project: Project }> = []

/** A proposal pair whose sides hold `formulas` inline formulas each, in paragraphs of ten. */
function formulaPair(id: string, formulas: number): NewItem {
  const paragraphs: string[] = []
  for (let i = 0; i < formulas; i += 10) {
    paragraphs.push(Array.from({ length: 10 }, (_, j) => `term $x_{${i + j}} + \\frac{a_{${i + j}}}{b^{2}}$`).join(', ') + '.')
  }
  const side = (title: string) => `# ${title}\n\n## Introduction\n\n${paragraphs.join('\n\n')}\n\n## Proposed Approach\n\nAs above.\n`
  return {
    kind: 'proposal-pair',
    externalId: id,
    set: 'pairs',
    split: 'none',
    payload: { pair_id: id, topic: 'maths', a: { markdown: side('Left'), origin: 'human' }, b: { markdown: side('Right'), origin: 'ai' } }
  }
}

/** A project whose annotator's first queue opens on `item`, served in this process with the given page budgets. */
async function serving(name: string, item: NewItem, firstPage?: FirstAnswersOptions): Promise<WebServer> {
  mkdirSync(tmp.file(name))
  const project = await Project.create(tmp.file(`${name}.assay`))
  project.write((db) => insertItems(db, [item]))
  const ada = ensureAnnotator(project, 'Ada')
  assignItems(project, { instrumentId: 'pairwise-preference', annotators: [ada.name], overlap: 1 })
  const server = await startWebServer({
    project,
    hub: contextFor(project).hub,
    session: { role: 'annotator', annotator: { id: ada.id, name: ada.name }, locked: true },
    rendererDir: stubRendererDir(tmp.file(name)),
    ...(firstPage ? { firstPage } : {})
  })
  servers.push({ server, project })
  return server
}

function requestPage(server: WebServer): Promise<Response> {
  return fetch(`http://127.0.0.1:${server.port}/`, { headers: { authorization: `Bearer ${server.token}` } })
}

async function page(server: WebServer, answered?: Promise<Response>): Promise<FirstPage> {
  const res = await (answered ?? requestPage(server))
  const html = await res.text()
  const m = new RegExp(`<script type="application/json" id="${FIRST_ANSWERS_ID}">(.*?)</script>`, 's').exec(html)
  expect(m, 'the page has a first-answers block').not.toBeNull()
  return JSON.parse(m![1]!) as FirstPage
}

async function api(server: WebServer, op: string, input: unknown): Promise<{ ok: boolean; value: any }> {
  const res = await fetch(`http://127.0.0.1:${server.port}/api/${op}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(input)
  })
  return (await res.json()) as { ok: boolean; value: any }
}

const ops = (p: FirstPage) => p.answers.map((a) => a.key.split(' ')[0])

afterAll(async () => {
  for (const { server, project } of servers) {
    await server.close()
    project.close()
  }
  tmp.cleanup()
})

describe('the first item of a served page', () => {
  it('is left for the window to ask for when its texts are over the page’s budget', async () => {
    // Some 15,000 formulas on each side, about half a megabyte of Markdown.
    const server = await serving('huge', formulaPair('huge', 15_000))
    const first = await page(server)
    expect(ops(first)).toEqual(['session.get', 'project.info', 'instruments.list', 'settings.get', 'queue.summary', 'queue.list'])
    expect(first.markdown).toEqual([])
    // The window then asks for it as usual.
    const rows = (first.answers.at(-1)!.envelope as { value: { rows: Array<{ assignmentId: number }> } }).value.rows
    const item = await api(server, 'queue.item', { assignmentId: rows[0]!.assignmentId })
    expect(item.ok).toBe(true)
  })

  it('is left for the window when its parse takes longer than the page may wait', async () => {
    const server = await serving('slow', formulaPair('slow', 400), { parseBudgetMs: 1 })
    const first = await page(server)
    expect(ops(first)).toEqual(['session.get', 'project.info', 'instruments.list', 'settings.get', 'queue.summary', 'queue.list'])
    expect(first.markdown).toEqual([])
    // And the next page does not try again.
    expect(ops(await page(server))).toEqual(ops(first))
  })

  it('is left for the window when its parsed trees would make the page heavy', async () => {
    const server = await serving('heavy', formulaPair('heavy', 40), { parseBudgetBytes: 20_000 })
    const first = await page(server)
    expect(ops(first)).toEqual(['session.get', 'project.info', 'instruments.list', 'settings.get', 'queue.summary', 'queue.list'])
    expect(first.markdown).toEqual([])
  })

  it('holds up no other request while it is parsed', async () => {
    // A first page loads the parser, so what follows measures the parse alone, not that load.
    expect(ops(await page(await serving('warm', formulaPair('warm', 5))))).toContain('queue.item')
    // No budget here, so the page waits for the whole parse; meanwhile the same server keeps answering.
    const server = await serving('busy', formulaPair('busy', 600), { parseBudgetChars: Infinity, parseBudgetMs: 120_000, parseBudgetBytes: Infinity })
    // The page counts as answered once its response begins (the server writes it whole once the page is built).
    let pageAnswered = false
    const answered = requestPage(server).then((res) => {
      pageAnswered = true
      return res
    })
    let answeredMeanwhile = 0
    while (!pageAnswered && answeredMeanwhile < 5) {
      const r = await api(server, 'session.get', {})
      expect(r.ok).toBe(true)
      if (!pageAnswered) answeredMeanwhile++
    }
    expect(answeredMeanwhile).toBe(5)
    const first = await page(server, answered)
    expect(ops(first)).toContain('queue.item')
    expect(first.markdown.length).toBeGreaterThan(0)
    expect(first.markdown.every((m) => m.hast !== null && typeof m.hast === 'object')).toBe(true)
  })

  it('arrives parsed from `assay serve` (the compiled command line finds its worker), which still ends when stopped', async () => {
    const path = tmp.file('served.assay')
    const project = await Project.create(path)
    project.write((db) => insertItems(db, [formulaPair('served', 20)]))
    assignItems(project, { instrumentId: 'pairwise-preference', annotators: [ensureAnnotator(project, 'Ada').name], overlap: 1 })
    project.close()
    const served = await serveProject(path, ['--annotator', 'Ada'])
    try {
      const res = await fetch(served.url)
      const html = await res.text()
      const m = new RegExp(`<script type="application/json" id="${FIRST_ANSWERS_ID}">(.*?)</script>`, 's').exec(html)
      const first = JSON.parse(m![1]!) as FirstPage
      expect(ops(first)).toContain('queue.item')
      expect(JSON.stringify(first.markdown)).toContain('katex')
    } finally {
      // An idle parse worker must not keep the server's process alive: stop() resolves only once it has exited.
      await served.stop()
    }
    expect(served.process.exitCode ?? served.process.signalCode).not.toBeNull()
  })

  it('still arrives parsed when it is of ordinary size', async () => {
    const server = await serving('small', formulaPair('small', 20))
    const first = await page(server)
    expect(ops(first)).toContain('queue.item')
    expect(first.markdown.length).toBeGreaterThan(0)
    expect(JSON.stringify(first.markdown[0]!.hast)).toContain('katex')
  })
})
