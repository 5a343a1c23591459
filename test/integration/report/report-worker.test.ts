import { mkdirSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { computeReportInWorker, projectReport } from '../../../src/main/report'
import { dispatch } from '../../../src/main/api/dispatch'
import { curatorSession } from '../../../src/main/api/context'
import { startWebServer, type WebServer } from '../../../src/main/web/server'
import type { Project } from '../../../src/main/store/project'
import { AssayError } from '../../../src/shared/errors'
import { contextFor } from '../../support/project'
import { tempDir } from '../../support/tmp'
import { addCalls, addPairs, addRun, demoAfterJudgeRun, verdictFor, type CallSpec } from './fixtures'

const tmp = tempDir('assay-report-worker-')
let demo: Project
let large: Project

/** A project large enough that its report takes a while: pairs judged in both orders by three runs. */
async function largeProject(path: string, pairs: number): Promise<Project> {
  const { Project: ProjectClass } = await import('../../../src/main/store/project')
  const project = await ProjectClass.create(path)
  const ids = addPairs(
    project,
    Array.from({ length: pairs }, (_, i) => ({ id: `p${i}`, label: verdictFor(i % 3 ? 'a' : 'b'), origins: ['human', 'ai'] as ['human', 'ai'], set: `set-${i % 4}` }))
  )
  for (let r = 0; r < 3; r++) {
    const run = addRun(project, { instrument: 'pairwise-preference', judge: `judge-${r}`, bothOrders: true })
    const calls: CallSpec[] = []
    let k = 0
    for (const id of ids.values()) {
      for (const order of [0, 1]) calls.push({ item: id, order, swapped: order === 1, judgement: { verdict: verdictFor((k * 7 + r + order) % 5 < 3 ? 'a' : 'b') } })
      k++
    }
    addCalls(project, run, calls)
  }
  return project
}

beforeAll(async () => {
  demo = await demoAfterJudgeRun(tmp.file('demo.assay'))
  large = await largeProject(tmp.file('large.assay'), 3000)
}, 120_000)
afterAll(() => {
  demo.close()
  large.close()
  tmp.cleanup()
})

describe('the report in a worker thread', () => {
  it('gives the same report as computing it on the calling thread, and says how far it got', async () => {
    const generatedAt = '2026-01-01T00:00:00.000Z'
    const phases: string[] = []
    const fromWorker = await computeReportInWorker(
      { path: demo.path, instrument: 'pairwise-preference', report: { generatedAt } },
      { onProgress: (p) => phases.push(p.phase) }
    )
    expect(fromWorker).toEqual(projectReport(demo.db, { instrument: 'pairwise-preference', generatedAt }))
    expect(phases).toEqual(['reading', 'computing', 'resampling'])
  }, 120_000)

  it('passes errors back with their code, and stops at once when cancelled', async () => {
    await expect(computeReportInWorker({ path: demo.path, instrument: 'no-such', report: {} })).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/^Unknown instrument "no-such"; instruments: pairwise-preference, flaw-audit, /) })
    const controller = new AbortController()
    const pending = computeReportInWorker({ path: large.path, instrument: 'pairwise-preference', report: { resamples: 20_000 } }, { signal: controller.signal, onProgress: () => controller.abort() })
    await expect(pending).rejects.toBeInstanceOf(AssayError)
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' })
  }, 120_000)

  it('report.cancel stops a report requested under an id; progress is pushed as events', async () => {
    const ctx = contextFor(large)
    const events: Array<{ event: string; payload: unknown }> = []
    const off = ctx.hub.subscribe((event, payload) => events.push({ event, payload }))
    const pending = dispatch(ctx, 'report.build', { instrument: 'pairwise-preference', resamples: 20_000, requestId: 'screen-1' })
    await expect.poll(() => events.filter((e) => e.event === 'report.progress').length, { timeout: 60_000 }).toBeGreaterThan(0)
    expect(await dispatch(ctx, 'report.cancel', { requestId: 'screen-1' })).toEqual({ ok: true, value: { cancelled: true } })
    expect(await pending).toMatchObject({ ok: false, error: { code: 'cancelled' } })
    expect(events[0]).toMatchObject({ event: 'report.progress', payload: { requestId: 'screen-1', phase: 'reading' } })
    expect(await dispatch(ctx, 'report.cancel', { requestId: 'screen-1' })).toEqual({ ok: true, value: { cancelled: false } })
    off()
  }, 120_000)
})

describe('the browser-mode server while a large report computes', () => {
  let server: WebServer
  beforeAll(async () => {
    const renderer = tmp.file('renderer')
    mkdirSync(renderer)
    writeFileSync(`${renderer}/index.html`, '<!doctype html><title>t</title>')
    server = await startWebServer({ project: large, hub: contextFor(large).hub, session: curatorSession(), rendererDir: renderer })
  })
  afterAll(async () => {
    await server?.close()
  })

  const post = (op: string, input: unknown) =>
    new Promise<{ status: number; body: string; at: number }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: server.port, path: `/api/${op}`, method: 'POST', headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' } },
        (res) => {
          let body = ''
          res.on('data', (c: Buffer) => (body += c.toString()))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, at: performance.now() }))
        }
      )
      req.on('error', reject)
      req.end(JSON.stringify(input))
    })

  it('answers another operation before the report is done', async () => {
    const report = post('report.build', { instrument: 'pairwise-preference', resamples: 20_000 })
    // Sent after the report request: on a blocked event loop it could only be answered after the report.
    await new Promise((r) => setTimeout(r, 50))
    const other = await post('report.instruments', {})
    let reportDone: number | null = null
    void report.then((r) => (reportDone = r.at))
    expect(other.status).toBe(200)
    expect(reportDone).toBeNull()
    const finished = await report
    expect(finished.status).toBe(200)
    expect(finished.at).toBeGreaterThan(other.at)
    expect((JSON.parse(finished.body) as { value?: { sources: unknown[] } }).value?.sources.length ?? (JSON.parse(finished.body) as { sources: unknown[] }).sources.length).toBeGreaterThan(2)
  }, 120_000)
})
