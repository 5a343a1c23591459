import { spawn } from 'node:child_process'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { Project } from '../../../src/main/store/project'
import { repoRoot, tempDir } from '../../support/tmp'

const tmp = tempDir()
afterAll(() => tmp.cleanup())
// tsx as a loader of this very process (not tsx's CLI, which runs the script in a second node process): the pid we
// SIGKILL is the process that writes.
const tsxLoader = pathToFileURL(join(repoRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href
const writer = join(repoRoot, 'test', 'support', 'writer.ts')

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

function startWriter(path: string, prefix: string, count?: number) {
  const child = spawn(process.execPath, ['--import', tsxLoader, writer, path, prefix, ...(count ? [String(count)] : [])], { stdio: ['ignore', 'pipe', 'pipe'] })
  const acked: string[] = []
  let stderr = ''
  let buffer = ''
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString()
    const lines = buffer.split('\n')
    buffer = lines.pop() ?? ''
    for (const line of lines) if (line.startsWith('ack ')) acked.push(line.split(' ')[1]!)
  })
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, acked, exited, stderr: () => stderr }
}

describe('crash safety', () => {
  it('keeps every acknowledged write when the writer is killed with SIGKILL mid-stream', async () => {
    const path = tmp.file('crash.assay')
    ;(await Project.create(path)).close()
    const w = startWriter(path, 'k')
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (w.acked.length >= 300) {
          clearInterval(timer)
          w.child.kill('SIGKILL')
          resolve()
        }
      }, 5)
      void w.exited.then(() => {
        clearInterval(timer)
        reject(new Error(`writer exited early: ${w.stderr()}`))
      })
    })
    await w.exited
    const acked = [...w.acked]
    expect(acked.length).toBeGreaterThanOrEqual(300)
    // The writer itself is gone, and nothing goes on writing to the file after the kill.
    expect(isAlive(w.child.pid!)).toBe(false)
    const size = () => statSync(path).size + (statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0)
    const sizeAfterKill = size()
    await new Promise((r) => setTimeout(r, 500))
    expect(size()).toBe(sizeAfterKill)
    const db = new Database(path)
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    const present = new Set((db.prepare(`SELECT external_id FROM items`).all() as { external_id: string }[]).map((r) => r.external_id))
    const lost = acked.filter((id) => !present.has(id))
    expect(lost).toEqual([])
    db.close()
  })

  it('lets two processes write one project at once without corrupting it', async () => {
    const path = tmp.file('shared.assay')
    ;(await Project.create(path)).close()
    const a = startWriter(path, 'a', 150)
    const b = startWriter(path, 'b', 150)
    const [ca, cb] = await Promise.all([a.exited, b.exited])
    expect({ ca, cb, ea: a.stderr(), eb: b.stderr() }).toEqual({ ca: 0, cb: 0, ea: '', eb: '' })
    const p = await Project.open(path)
    expect(p.info().items).toBe(300)
    expect(p.db.pragma('integrity_check', { simple: true })).toBe('ok')
    p.close()
  })
})
