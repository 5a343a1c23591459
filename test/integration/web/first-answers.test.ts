import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WebServer } from '../../../src/main/web/server'
import { firstAnswers } from '../../../src/main/web/first-answers'
import { assignItems } from '../../../src/main/annotation/assign'
import { ensureAnnotator } from '../../../src/main/store/annotators'
import type { Project } from '../../../src/main/store/project'
import { FIRST_ANSWERS_ID, firstAnswerKey, type FirstPage } from '../../../src/shared/contract/first-answers'
import { getInstrument } from '../../../src/shared/instruments'
import { markdownHast, withoutPositions } from '../../../src/shared/markdown/pipeline'
import { viewTexts } from '../../../src/shared/markdown/view-texts'
import { smallProject } from '../../support/project'
import { tempDir } from '../../support/tmp'
import { annotatorAndCuratorServers, stubRendererDir, type SessionServers } from '../../support/web'

// The page a browser session loads carries the answers to the window's first calls. They must be exactly what the
// API answers the same session (the same blinding and access checks), hold nothing the page could execute, and be
// revalidated so a changed project is never served from the browser's cache.

const tmp = tempDir()
let project: Project
let annotatorServer: WebServer
let curatorServer: WebServer
let servers: SessionServers
/** Text that would close a script element if written into the page raw (here in the annotator's name). */
const HOSTILE = '</script><script>alert(1)</script><!--'

beforeAll(async () => {
  project = await smallProject(tmp.file('p.assay'))
  const ada = ensureAnnotator(project, `Dr. Ada ${HOSTILE}`)
  assignItems(project, { instrumentId: 'idea-review', annotators: [ada.name], overlap: 1 })
  servers = await annotatorAndCuratorServers(project, { id: ada.id, name: ada.name }, stubRendererDir(tmp.dir))
  annotatorServer = servers.annotator
  curatorServer = servers.curator
})
afterAll(async () => {
  await servers.close()
  project.close()
  tmp.cleanup()
})

async function page(server: WebServer, headers: Record<string, string> = {}): Promise<{ status: number; html: string; etag: string | null; cache: string | null }> {
  const res = await fetch(`http://127.0.0.1:${server.port}/`, { headers: { authorization: `Bearer ${server.token}`, ...headers } })
  return { status: res.status, html: await res.text(), etag: res.headers.get('etag'), cache: res.headers.get('cache-control') }
}

function blockIn(html: string): FirstPage {
  const m = new RegExp(`<script type="application/json" id="${FIRST_ANSWERS_ID}">(.*?)</script>`, 's').exec(html)
  expect(m, 'the page has a first-answers block').not.toBeNull()
  return JSON.parse(m![1]!) as FirstPage
}

function answersIn(html: string): Map<string, unknown> {
  return new Map(blockIn(html).answers.map((a) => [a.key, a.envelope]))
}

async function api(server: WebServer, op: string, input: unknown): Promise<unknown> {
  const res = await fetch(`http://127.0.0.1:${server.port}/api/${op}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(input)
  })
  return res.json()
}

describe('the answers a page carries', () => {
  it('are, for an annotator, what the API answers that session: session, project, queues, the first queue and its first item', async () => {
    const { html, cache } = await page(annotatorServer)
    expect(cache).toBe('no-cache')
    const answers = answersIn(html)
    const summary = (await api(annotatorServer, 'queue.summary', {})) as { value: { queues: Array<{ instrument_id: string }> } }
    const instrument = summary.value.queues[0]!.instrument_id
    const list = (await api(annotatorServer, 'queue.list', { instrument })) as { value: { rows: Array<{ assignmentId: number }> } }
    const first = list.value.rows[0]!.assignmentId
    const calls: Array<[string, unknown]> = [
      ['session.get', {}],
      ['project.info', {}],
      ['instruments.list', {}],
      ['settings.get', {}],
      ['queue.summary', {}],
      ['queue.list', { instrument }],
      ['queue.item', { assignmentId: first }]
    ]
    expect([...answers.keys()].sort()).toEqual(calls.map(([op, input]) => firstAnswerKey(op, input)).sort())
    for (const [op, input] of calls) expect(answers.get(firstAnswerKey(op, input)), op).toEqual(await api(annotatorServer, op, input))
    // The annotator's project.info: no path on the page either.
    expect(html).not.toContain(tmp.file('p.assay'))
  })

  it('bring the first item\'s texts parsed, each at the offset the window renders it from', async () => {
    const { html } = await page(annotatorServer)
    const { answers, markdown } = blockIn(html)
    const item = answers.find((a) => a.key.startsWith('queue.item '))!.envelope as { value: { instrument: string; view: Record<string, unknown> } }
    const form = getInstrument(item.value.instrument).form
    const texts = viewTexts(item.value.view, form.widgets, form.rubric)
    expect(texts.length).toBeGreaterThan(1)
    expect(markdown.map((m) => [m.text, m.sourceOffset])).toEqual(texts.map((t) => [t.text, t.sourceOffset]))
    for (const m of markdown) expect(m.hast).toEqual(JSON.parse(JSON.stringify(withoutPositions(markdownHast(m.text, m.sourceOffset)))))
    // A curator's page brings none.
    expect(blockIn((await page(curatorServer)).html).markdown).toEqual([])
  })

  it('escape what would end the data block, so no text becomes markup', async () => {
    const { html } = await page(annotatorServer)
    const block = html.slice(html.indexOf(`id="${FIRST_ANSWERS_ID}"`))
    expect(block.indexOf('</script>')).toBe(block.length - '</script>'.length)
    expect(html).not.toContain('<script>alert(1)')
    // The text still arrives whole once parsed.
    const session = answersIn(html).get(firstAnswerKey('session.get', {})) as { value: { annotator: { name: string } } }
    expect(session.value.annotator.name).toBe(`Dr. Ada ${HOSTILE}`)
  })

  it('leave out a queue whose rows would make the page heavy, and the item after it', async () => {
    const session = (await api(annotatorServer, 'session.get', {})) as { value: { annotator: { id: number; name: string } } }
    const ctx = { project, session: { role: 'annotator' as const, annotator: session.value.annotator, locked: true }, events: { emit: () => undefined } }
    const whole = await firstAnswers(ctx)
    const listBytes = JSON.stringify(whole.answers.find((a) => a.key.startsWith('queue.list '))!.envelope).length
    const ops = (p: FirstPage) => p.answers.map((a) => a.key.split(' ')[0])
    expect(ops(await firstAnswers(ctx, { listBudgetBytes: listBytes }))).toEqual(ops(whole))
    const light = await firstAnswers(ctx, { listBudgetBytes: listBytes - 1 })
    expect(ops(light)).toEqual(['session.get', 'project.info', 'instruments.list', 'settings.get', 'queue.summary'])
    expect(light.markdown).toEqual([])
    // A queue too long for the budget even at the fewest bytes a row takes is not listed at all, with the same page.
    const tiny = await firstAnswers(ctx, { listBudgetBytes: 8 })
    expect(ops(tiny)).toEqual(ops(light))
  })

  it('leave the queues out for a curator, who lands on the overview', async () => {
    const answers = answersIn((await page(curatorServer)).html)
    expect([...answers.keys()].map((k) => k.split(' ')[0]).sort()).toEqual(['instruments.list', 'project.info', 'session.get', 'settings.get'])
    expect(answers.get(firstAnswerKey('project.info', {}))).toEqual(await api(curatorServer, 'project.info', {}))
  })

  it('are revalidated: the same page answers 304, a changed project a new page', async () => {
    const before = await page(annotatorServer)
    expect(before.etag).toMatch(/^"[\w-]+"$/)
    expect((await page(annotatorServer, { 'if-none-match': before.etag! })).status).toBe(304)
    const list = (await api(annotatorServer, 'queue.summary', {})) as { value: { queues: Array<{ instrument_id: string }> } }
    const instrument = list.value.queues[0]!.instrument_id
    const rows = (await api(annotatorServer, 'queue.list', { instrument })) as { value: { rows: Array<{ assignmentId: number }> } }
    const skipped = (await api(annotatorServer, 'queue.setStatus', { assignmentId: rows.value.rows[0]!.assignmentId, status: 'skipped', reason: 'later' })) as { ok: boolean }
    expect(skipped.ok).toBe(true)
    const after = await page(annotatorServer, { 'if-none-match': before.etag! })
    expect(after.status).toBe(200)
    expect(after.etag).not.toBe(before.etag)
  })
})
