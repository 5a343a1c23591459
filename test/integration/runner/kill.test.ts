import { spawn } from 'node:child_process'
import Database from 'better-sqlite3'
import { readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeProviders, type FakeProviders } from '../../fakes'
import { runCli } from '../../support/cli'
import { repoRoot, tempDir } from '../../support/tmp'
import { Project } from '../../../src/main/store/project'
import { ideaProject, KEYS } from './helpers'

// The CLI as users run it, killed with SIGKILL in the middle of a run and run again: every call that was recorded
// as answered before the kill must not reach the server a second time.

const tmp = tempDir()
let fake: FakeProviders
const ITEMS = 120
const CONCURRENCY = 4
const REVIEW = 'Short analysis.\n{"originality": 7, "feasibility": 6, "clarity": 8}'

beforeAll(async () => {
  fake = await startFakeProviders({ apiKeys: { openai: KEYS.openai }, responder: () => REVIEW, faults: [{ fault: { type: 'delay', ms: 50 } }] })
})
afterAll(async () => {
  await fake.close()
  tmp.cleanup()
})

interface Child {
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>
  kill(signal: NodeJS.Signals): void
}

function cli(args: string[], env: NodeJS.ProcessEnv): Child {
  const child = spawn(process.execPath, [join(repoRoot, 'bin', 'assay.mjs'), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
  return {
    done: new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }))),
    kill: (signal) => child.kill(signal)
  }
}

function answeredInFile(path: string): number {
  if (!existsSync(path)) return 0
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true })
    try {
      return (db.prepare(`SELECT count(*) AS n FROM model_calls WHERE status = 'ok'`).get() as { n: number }).n
    } finally {
      db.close()
    }
  } catch {
    // The schema is not there yet, or the file is busy for a moment.
    return 0
  }
}

function usersSent(): Map<string, number> {
  const counts = new Map<string, number>()
  for (const r of fake.requestsTo('openai.chat')) {
    const user = (r.body as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'user')!.content
    counts.set(user, (counts.get(user) ?? 0) + 1)
  }
  return counts
}

describe('a CLI run killed with SIGKILL', () => {
  it('resumes without a duplicate request for any call completed before the kill, and keeps keys out of every output', async () => {
    const path = tmp.file('kill.assay')
    ;(await ideaProject(path, ITEMS)).close()
    const args = ['judge', path, '--instrument', 'idea-review', '--provider', 'openai', '--model', 'gpt-4.1-mini', '--base-url', fake.url('openai'), '--concurrency', String(CONCURRENCY)]
    const env = { OPENAI_API_KEY: KEYS.openai }

    const first = cli(args, env)
    // Kill once the file says some calls are answered: read it as another process would, while the run writes it.
    const deadline = Date.now() + 60_000
    while (answeredInFile(path) < 20 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5))
    // Listed from another process while the run executes, it is running.
    expect(JSON.parse((await runCli('runs', 'list', path, '--json')).stdout).runs[0]).toMatchObject({ status: 'running', active: true, interrupted: false })
    first.kill('SIGKILL')
    const killed = await first.done
    expect(killed.signal).toBe('SIGKILL')

    // What the file says was answered when the process died.
    const project = await Project.open(path)
    const answered = (project.db.prepare(`SELECT prompt FROM model_calls WHERE status = 'ok'`).all() as { prompt: string }[]).map((r) => JSON.parse(r.prompt).user as string)
    const runStatus = (project.db.prepare(`SELECT status FROM runs`).get() as { status: string }).status
    project.close()
    expect(answered.length).toBeGreaterThanOrEqual(20)
    expect(answered.length).toBeLessThan(ITEMS)
    expect(runStatus).toBe('running')
    // Killed, it is interrupted, not running.
    const listed = await runCli('runs', 'list', path)
    expect(listed.stdout).toMatch(/^1\s+idea-review\s+gpt-4\.1-mini\s+interrupted\s/m)
    // And the report's Sources say so too.
    const report = JSON.parse((await runCli('report', path, '--instrument', 'idea-review', '--json')).stdout) as { sources: Array<{ id: string; detail: Record<string, unknown> }> }
    expect(report.sources.find((s) => s.id === 'run:1')!.detail.run_status).toBe('interrupted')

    const second = cli(args, env)
    const resumed = await second.done
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(resumed.stderr).toContain('Resuming run 1')
    expect(resumed.stdout).toMatch(new RegExp(`Run 1 finished: ${ITEMS} ok, 0 unparseable, 0 failed, 0 pending of ${ITEMS}`))

    const sent = usersSent()
    for (const user of answered) expect(sent.get(user), user).toBe(1)
    expect(sent.size).toBe(ITEMS)
    // Only requests whose answers had not reached the file may be sent again: those in flight at the kill and those
    // answered but not yet committed, at most twice the concurrency.
    const duplicates = [...sent.values()].reduce((s, c) => s + c - 1, 0)
    expect(duplicates).toBeLessThanOrEqual(2 * CONCURRENCY)

    const after = await Project.open(path)
    const counts = after.db.prepare(`SELECT count(*) AS n, sum(status = 'ok') AS ok FROM model_calls`).get() as { n: number; ok: number }
    expect((after.db.prepare(`SELECT status FROM runs`).get() as { status: string }).status).toBe('done')
    after.close()
    expect(counts).toEqual({ n: ITEMS, ok: ITEMS })

    // The key is in no output and nowhere in the project's bytes.
    for (const text of [killed.stdout, killed.stderr, resumed.stdout, resumed.stderr]) expect(text).not.toContain(KEYS.openai)
    for (const file of [path, `${path}-wal`]) {
      if (existsSync(file)) expect(readFileSync(file).includes(Buffer.from(KEYS.openai))).toBe(false)
    }
  }, 120_000)
})

describe('a CLI run stopped with Ctrl+C', () => {
  it('cancels through the contract: finished calls kept, exit 130, the same command resumes it', async () => {
    const path = tmp.file('sigint.assay')
    ;(await ideaProject(path, ITEMS)).close()
    const args = ['judge', path, '--instrument', 'idea-review', '--provider', 'openai', '--model', 'gpt-4.1-mini', '--base-url', fake.url('openai'), '--concurrency', String(CONCURRENCY)]
    const env = { OPENAI_API_KEY: KEYS.openai }

    const first = cli(args, env)
    const deadline = Date.now() + 60_000
    while (answeredInFile(path) < 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5))
    first.kill('SIGINT')
    const stopped = await first.done
    expect(stopped.code, stopped.stderr).toBe(130)
    expect(stopped.stderr).toContain('Starting run 1: idea-review by gpt-4.1-mini (openai), 120 calls on 120 items')
    expect(stopped.stdout).toMatch(/^Run 1 cancelled \(run the same command to resume\): \d+ ok, /m)
    const kept = answeredInFile(path)
    expect(kept).toBeGreaterThanOrEqual(10)
    expect(kept).toBeLessThan(ITEMS)
    const listed = JSON.parse((await runCli('runs', 'list', path, '--json')).stdout).runs[0]
    expect(listed).toMatchObject({ status: 'cancelled', active: false })

    const second = cli(args, env)
    const resumed = await second.done
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(resumed.stderr).toContain('Resuming run 1')
    expect(resumed.stdout).toMatch(new RegExp(`Run 1 finished: ${ITEMS} ok, 0 unparseable, 0 failed, 0 pending of ${ITEMS}`))
  }, 120_000)
})
