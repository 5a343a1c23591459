import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Project } from '../../../src/main/store/project'
import { loadDemo } from '../../../src/main/demo/load-demo'
import { assignItems } from '../../../src/main/annotation/assign'
import { serveProject, type ServedProject } from '../../support/serve'
import { escapeHelpers, MISSING_SLICE } from '../../support/check-escape'
import { tempDir } from '../../support/tmp'

// The console escape sent the way an annotator would: to `assay serve P --annotator Ada` (the compiled command line)
// through `checks.run`, and inside an answer through `annotations.submit`, whose checks main runs again. Neither run
// may touch the host; the stored check holds the engine's own output.

const tmp = tempDir()
const MARKER = tmp.file('escaped.txt')
const SLEEP = `sleep 38.${process.pid}`
let served: ServedProject
let listener: Server
let port = 0
let connections = 0
const path = tmp.file('served.assay')

beforeAll(async () => {
  listener = createServer((s) => {
    connections++
    s.destroy()
  })
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
  port = (listener.address() as { port: number }).port
  const project = await Project.create(path)
  await loadDemo(project)
  assignItems(project, { instrumentId: 'flaw-audit', annotators: ['Ada'], overlap: 1 })
  project.close()
  served = await serveProject(path, ['--annotator', 'Ada'])
}, 90_000)
afterAll(async () => {
  await served?.stop()
  await new Promise<void>((resolve) => listener.close(() => resolve()))
  tmp.cleanup()
})

async function call<T>(op: string, input: unknown): Promise<T> {
  const token = new URL(served.url).searchParams.get('token')!
  const res = await fetch(`${served.origin}/api/${op}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(input)
  })
  const envelope = (await res.json()) as { ok: boolean; value?: T; error?: { message: string } }
  if (!envelope.ok) throw new Error(`${op}: ${envelope.error?.message}`)
  return envelope.value as T
}

/** What the exploit prints when it is contained: the console worked as usual and nothing of the host was found. */
const CONTAINED = 'x {"a":1}\nx {"a":1}\nforeign 0, host not reached'
const exploit = () => `${escapeHelpers(MARKER, SLEEP)}\n${MISSING_SLICE}`.replaceAll('${PORT}', String(port))

function expectUntouched(): void {
  expect(existsSync(MARKER)).toBe(false)
  expect(connections).toBe(0)
}

describe('worked checks on a served project', () => {
  it('checks.run from an annotator’s session stays in the engine', async () => {
    const r = await call<{ output: string; error: string | null; timedOut: boolean }>('checks.run', { code: exploit() })
    expect(r.error).toBeNull()
    expect(r.output).toBe(CONTAINED)
    expect((await call<{ output: string }>('checks.run', { code: 'console.log([1, 2, 3].map((x) => x * x).join(" "))' })).output).toBe('1 4 9')
    expectUntouched()
  })

  it('the re-run on annotations.submit stays in the engine and stores the engine’s output as verified', async () => {
    const { rows } = await call<{ rows: Array<{ assignmentId: number }> }>('queue.list', { instrument: 'flaw-audit' })
    const assignmentId = rows[0]!.assignmentId
    const item = await call<{ view: { a: { markdown: string } } }>('queue.item', { assignmentId })
    const quote = item.view.a.markdown.split('\n').find((l) => l.length > 20)!.slice(0, 20)
    const check = { code: exploit(), output: CONTAINED, ran_at: new Date().toISOString() }
    const judgement = { flaws: [{ side: 'a', type: 'other', severity: 'minor', evidence: quote, check }] }
    const { annotationId } = await call<{ annotationId: string }>('annotations.submit', { assignmentId, judgement, activeMs: 5 })
    expectUntouched()
    await served.stop()
    const project = await Project.open(path)
    try {
      const row = project.db.prepare('SELECT judgement FROM annotations WHERE id = ?').get(annotationId) as { judgement: string }
      const stored = (JSON.parse(row.judgement) as { flaws: Array<{ check: Record<string, unknown> }> }).flaws[0]!.check
      expect(stored).toMatchObject({ output: CONTAINED, verification: 'verified' })
    } finally {
      project.close()
    }
  })
})
