import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import { Project } from '../../../src/main/store/project'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { ctxFor } from '../packets/support'

// An output path the file system cannot take, or one where a file already stands in the way, is the caller's to
// change: it is told which path and what is wrong (never `internal` with a raw errno), and nothing is written.

const tmp = tempDir('assay-output-names-')
const path = tmp.file('demo.assay')
const dir = tmp.file('out')
let project: Project

/** Every file under the output folder, with its bytes, to show that a refusal wrote and changed nothing. */
function snapshot(): string {
  return JSON.stringify(readdirSync(dir, { recursive: true }).sort().map((f) => [f, String(f).endsWith('.assay') ? null : readFileSync(join(dir, String(f)), 'utf8')]))
}

async function refusal(op: string, input: Record<string, unknown>): Promise<{ code: string; message: string; details?: Array<{ file?: string; message: string }> }> {
  const before = snapshot()
  const envelope = await dispatch(ctxFor(project), op, input)
  expect(envelope.ok).toBe(false)
  expect(snapshot()).toBe(before)
  return (envelope as { error: { code: string; message: string; details?: Array<{ file?: string; message: string }> } }).error
}

beforeAll(async () => {
  expect((await runCli('new', path, '--demo')).code).toBe(0)
  mkdirSync(dir)
  writeFileSync(join(dir, 'exists.jsonl'), 'kept\n')
  ;(await Project.create(join(dir, 'other.assay'))).close()
  project = await Project.open(path)
  const assigned = await dispatch(ctxFor(project), 'assignments.create', { instrument: 'pairwise-preference', annotators: ['Ada'], overlap: 1 })
  expect(assigned.ok).toBe(true)
})
afterAll(() => {
  project.close()
  tmp.cleanup()
})

describe('an output name longer than the file system holds', () => {
  const tooLong = `${'数'.repeat(90)}.jsonl`

  it('is refused by export.table as invalid input, naming the path and its length', async () => {
    const target = join(dir, tooLong)
    const error = await refusal('export.table', { what: 'labels', out: target })
    expect(error.code).toBe('invalid_input')
    expect(error.message).toContain(target)
    expect(error.message).toMatch(/276 bytes.*at most 255/)
    expect(error.details).toEqual([expect.objectContaining({ file: target })])
  })

  it('is refused by export.training as invalid input, for the folder it would make', async () => {
    const target = join(dir, '数'.repeat(200))
    const error = await refusal('export.training', { what: 'preferences', out: target })
    expect(error.code).toBe('invalid_input')
    expect(error.message).toContain(target)
  })

  it('is refused by packet export before the project records a packet', async () => {
    const target = join(dir, `${'数'.repeat(200)}.assay`)
    const packets = () => (project.db.prepare(`SELECT count(*) AS n FROM packets`).get() as { n: number }).n
    const before = packets()
    const error = await refusal('packets.export', { annotator: 'Ada', out: target })
    expect(error.code).toBe('invalid_input')
    expect(error.message).toContain(target)
    expect(packets()).toBe(before)
  })

  it('leaves room for the journal beside a packet, so the packet can be opened where it is written', async () => {
    // 250 bytes fit a name, but not the `-journal` SQLite writes beside it.
    const target = join(dir, `${'数'.repeat(82)}.assay`)
    const error = await refusal('packets.export', { annotator: 'Ada', out: target })
    expect(error.code).toBe('invalid_input')
    expect(error.message).toMatch(/-journal/)
  })
})

describe('an output folder where a file already stands', () => {
  it.each([
    ['another project', 'other.assay', true],
    ['another project', 'other.assay', false],
    ['an existing file', 'exists.jsonl', false],
    ['an existing file', 'exists.jsonl', true]
  ])('is refused by export.training at %s (%s, overwrite %s), naming the path, and the file is left as it was', async (_what, name, overwrite) => {
    const target = join(dir, name)
    const error = await refusal('export.training', { what: 'preferences', out: target, overwrite })
    expect(error.code).not.toBe('internal')
    expect(error.message).toContain(target)
    expect(error.message).not.toMatch(/EEXIST|ENOTDIR/)
  })

  it('is refused when a folder above it is a file', async () => {
    const target = join(dir, 'exists.jsonl', 'prefs')
    const error = await refusal('export.training', { what: 'preferences', out: target })
    expect(error.code).not.toBe('internal')
    expect(error.message).toContain(join(dir, 'exists.jsonl'))
    expect(error.message).not.toMatch(/EEXIST|ENOTDIR/)
  })
})
