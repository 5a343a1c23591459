import { readFileSync, existsSync } from 'node:fs'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startFakeProviders, type FakeProviders } from '../../fakes'
import { runCli } from '../../support/cli'
import { contextFor } from '../../support/project'
import { tempDir } from '../../support/tmp'
import { dispatch } from '../../../src/main/api/dispatch'
import { setRunEnvironment } from '../../../src/main/api/run-environment'
import { MemoryKeyStore } from '../../../src/main/secrets'
import { Project } from '../../../src/main/store/project'
import { ideaProject, KEYS } from './helpers'

const tmp = tempDir()
let fake: FakeProviders
const WRONG = 'sk-wrong-key-9f8e7d6c5b4a3210'
const saved = process.env.OPENAI_API_KEY

beforeAll(async () => {
  // The server refuses any other key and echoes the key it got in its message, as OpenAI's API does.
  fake = await startFakeProviders({ apiKeys: { openai: KEYS.openai } })
})
afterEach(() => {
  if (saved === undefined) delete process.env.OPENAI_API_KEY
  else process.env.OPENAI_API_KEY = saved
})
afterAll(async () => {
  await fake.close()
  tmp.cleanup()
})

function fileHas(path: string, secret: string): boolean {
  return [path, `${path}-wal`].some((f) => existsSync(f) && readFileSync(f).includes(Buffer.from(secret)))
}

describe('API keys', () => {
  it('never reach the project file, the CLI output or a stored error, even when the server echoes them', async () => {
    const path = tmp.file('keys.assay')
    ;(await ideaProject(path, 3)).close()
    process.env.OPENAI_API_KEY = WRONG
    const args = ['judge', path, '--instrument', 'idea-review', '--provider', 'openai', '--model', 'gpt-4.1-mini', '--base-url', fake.url('openai')]
    const refused = await runCli(...args)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('HTTP 401')
    // The server's message named the key; what was printed and stored has it redacted.
    expect(fake.requestsTo('openai.chat')[0]!.headers['authorization']).toBe(`Bearer ${WRONG}`)
    expect(`${refused.stdout}${refused.stderr}`).not.toContain(WRONG)
    expect(`${refused.stdout}${refused.stderr}`).toContain('[redacted]')

    process.env.OPENAI_API_KEY = KEYS.openai
    const ok = await runCli(...args, '--json')
    expect(ok.code).toBe(0)
    expect(`${ok.stdout}${ok.stderr}`).not.toContain(KEYS.openai)

    const project = await Project.open(path)
    const errors = (project.db.prepare(`SELECT error FROM model_calls WHERE error IS NOT NULL`).all() as { error: string }[]).map((r) => r.error)
    const ctx = contextFor(project)
    const detail = await dispatch(ctx, 'runs.call', { callId: 1 })
    const listing = await dispatch(ctx, 'runs.list', {})
    project.close()
    expect(JSON.stringify([errors, detail, listing])).not.toContain(WRONG)
    expect(fileHas(path, WRONG)).toBe(false)
    expect(fileHas(path, KEYS.openai)).toBe(false)
  })

  it('are reported missing by name and variable, and never sent back by the API', async () => {
    const path = tmp.file('missing.assay')
    ;(await ideaProject(path, 1)).close()
    delete process.env.OPENAI_API_KEY
    const r = await runCli('judge', path, '--instrument', 'idea-review', '--provider', 'openai', '--model', 'gpt-4.1-mini', '--base-url', fake.url('openai'))
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('No API key for gpt-4.1-mini (openai): set OPENAI_API_KEY')

    const store = new MemoryKeyStore({ warning: 'plain text' })
    const restore = setRunEnvironment(() => ({ keyStore: store }))
    const project = await Project.open(path)
    const ctx = contextFor(project)
    const set = await dispatch(ctx, 'keys.set', { ref: 'openai', key: KEYS.openai })
    const status = await dispatch(ctx, 'keys.status', {})
    project.close()
    restore()
    expect(set).toEqual({ ok: true, value: { storage: { backend: 'memory', encrypted: false, warning: 'plain text' }, keys: [{ ref: 'openai', source: 'memory' }] } })
    expect(JSON.stringify(status)).not.toContain(KEYS.openai)
    expect(await store.get('openai')).toBe(KEYS.openai)
    expect(fileHas(path, KEYS.openai)).toBe(false)
  })
})
