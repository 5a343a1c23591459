import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Project } from '../../../src/main/store/project'

const HERE = dirname(fileURLToPath(import.meta.url))
const REPO = resolve(HERE, '../../..')
const CHILD = join(HERE, 'support', 'import-child.ts')
const ROWS = 50_000

interface ChildResult {
  killedAt: string | null
  finished: boolean
  stderr: string
}

/**
 * Starts the import in its own process group (npx and tsx each start a process) and SIGKILLs the whole group as
 * soon as the child reports a write batch at or past `killAfter` rows.
 */
function importAndKill(project: string, data: string, killAfter: number): Promise<ChildResult> {
  return new Promise((done, fail) => {
    const child = spawn('npx', ['tsx', CHILD, project, 'questions', data], { cwd: REPO, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let killedAt: string | null = null
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const progress = [...stdout.matchAll(/writing (\d+)\/(\d+)/g)].at(-1)
      if (!killedAt && progress && Number(progress[1]) >= killAfter) {
        killedAt = progress[0]
        process.kill(-child.pid!, 'SIGKILL')
      }
    })
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()))
    child.on('error', fail)
    child.on('close', () => done({ killedAt, finished: stdout.includes('finished'), stderr }))
  })
}

describe('an import killed with SIGKILL mid-write', () => {
  let dir: string
  let data: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'assay-kill-'))
    data = join(dir, 'questions.jsonl')
    const lines: string[] = []
    for (let i = 0; i < ROWS; i++) lines.push(JSON.stringify({ question_id: `Q${i}`, question: `Question number ${i}: why does it happen?`, background: 'x'.repeat(200) }))
    writeFileSync(data, lines.join('\n'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('leaves none or all of the rows, and an intact file', { timeout: 120_000 }, async () => {
    const path = join(dir, 'killed.assay')
    ;(await Project.create(path)).close()
    const result = await importAndKill(path, data, 1000)
    expect(result.stderr).not.toMatch(/Error/)
    // The kill landed inside the write phase, before the transaction could report its end.
    expect(result.killedAt).not.toBeNull()
    expect(result.finished).toBe(false)

    const project = await Project.open(path)
    try {
      expect(project.db.pragma('integrity_check', { simple: true })).toBe('ok')
      const items = (project.db.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n
      const imports = (project.db.prepare('SELECT count(*) AS n FROM imports').get() as { n: number }).n
      expect([0, ROWS]).toContain(items)
      expect(imports).toBe(items === 0 ? 0 : 1)
    } finally {
      project.close()
    }
  })

  it('imports all 50,000 rows when left to finish', { timeout: 120_000 }, async () => {
    const path = join(dir, 'whole.assay')
    ;(await Project.create(path)).close()
    const result = await importAndKill(path, data, Number.POSITIVE_INFINITY)
    expect(result.finished).toBe(true)
    const project = await Project.open(path)
    try {
      expect(project.db.prepare('SELECT count(*) AS n FROM items').get()).toEqual({ n: ROWS })
    } finally {
      project.close()
    }
  })
})
