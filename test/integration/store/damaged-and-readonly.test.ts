import { spawnSync } from 'node:child_process'
import { chmodSync, closeSync, openSync, readFileSync, statSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { insertItems } from '../../../src/main/store/items'
import { Project } from '../../../src/main/store/project'
import { AssayError } from '../../../src/shared/errors'
import { runCli } from '../../support/cli'
import { repoRoot, tempDir } from '../../support/tmp'

async function projectWithItems(path: string, n: number): Promise<void> {
  const project = await Project.create(path)
  project.write((db) =>
    insertItems(
      db,
      Array.from({ length: n }, (_, i) => ({ kind: 'idea' as const, externalId: `idea-${i}`, set: 'ideas', split: 'none' as const, payload: { idea: `Idea ${i} `.repeat(30) } }))
    )
  )
  project.close()
}

describe('a damaged project', () => {
  let tmp: ReturnType<typeof tempDir>
  beforeEach(() => (tmp = tempDir('assay-damaged-')))
  afterEach(() => tmp.cleanup())

  it('is refused on a verified open (serve, the app) with its file named, and left as it was', async () => {
    const path = tmp.file('p.assay')
    await projectWithItems(path, 2000)
    // Sound, the check says so.
    const sound = await runCli('info', path, '--check')
    expect(sound.code, sound.stderr).toBe(0)
    expect(sound.stdout).toContain('integrity: ok (PRAGMA quick_check)')
    expect(JSON.parse((await runCli('info', path, '--check', '--json')).stdout)).toMatchObject({ integrity: 'ok' })
    expect(JSON.parse((await runCli('info', path, '--json')).stdout).integrity).toBeUndefined()
    // Garbage over pages in the middle of the file: the schema on page 1 still reads, the tables do not.
    const size = statSync(path).size
    const fd = openSync(path, 'r+')
    writeSync(fd, Buffer.alloc(4096 * 4, 0x5a), 0, 4096 * 4, Math.floor(size / 2 / 4096) * 4096)
    closeSync(fd)
    const before = readFileSync(path)
    const err = await Project.open(path, { verify: true }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AssayError)
    expect((err as AssayError).message).toContain(path)
    expect((err as AssayError).message).toMatch(/damaged/)
    expect(readFileSync(path).equals(before)).toBe(true)
    // info --check checks the file; a command that meets the damage while reading says which file it is in.
    const info = await runCli('info', path, '--check')
    expect(info.code).toBe(1)
    expect(info.stderr).toContain(`${path} is damaged`)
    const report = await runCli('report', path, '--instrument', 'idea-review')
    expect(report.code).toBe(1)
    expect(report.stderr).toContain(`${path} is damaged`)
  })

  it('names the file when it is not a database at all', async () => {
    const path = tmp.file('junk.assay')
    const fd = openSync(path, 'w')
    writeSync(fd, Buffer.alloc(8192, 0x41))
    closeSync(fd)
    const r = await runCli('info', path)
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(path)
  })
})

describe('a project that cannot be written', () => {
  let tmp: ReturnType<typeof tempDir>
  beforeEach(() => (tmp = tempDir('assay-readonly-')))
  afterEach(() => {
    chmodSync(tmp.dir, 0o755)
    tmp.cleanup()
  })

  // Root can write any file, so the command runs as an unprivileged user when the tests run as root.
  const asReader = (args: string[]) => {
    const root = process.getuid?.() === 0
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'src/main/cli/main.ts'), ...args], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, HOME: tmp.dir },
      ...(root ? { uid: 65534, gid: 65534 } : {})
    })
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr }
  }

  it('can be read by info, report and export, which say it was opened read-only', async () => {
    const path = tmp.file('p.assay')
    await projectWithItems(path, 3)
    chmodSync(path, 0o444)
    const outDir = tmp.file('out')
    chmodSync(tmp.dir, 0o755)
    const before = readFileSync(path)

    const info = asReader(['info', path, '--json'])
    expect(info.stderr).not.toContain('readonly database')
    expect(info.code).toBe(0)
    expect(JSON.parse(info.stdout)).toMatchObject({ items: 3 })
    expect(info.stderr).toContain('read-only')

    // A folder the reader may write, for the export.
    spawnSync('mkdir', ['-m', '0777', outDir])
    const exp = asReader(['export', path, 'labels', '--out', join(outDir, 'labels.jsonl')])
    expect(exp.stderr).toContain('read-only')
    expect(exp.code).toBe(0)

    const report = asReader(['report', path])
    expect(report.stderr).not.toContain('readonly database')

    const write = asReader(['import', path, 'questions', join(outDir, 'labels.jsonl')])
    expect(write.code).toBe(1)
    expect(write.stderr).toContain(`${path} is read-only`)
    expect(readFileSync(path).equals(before)).toBe(true)
  }, 120_000)
})
