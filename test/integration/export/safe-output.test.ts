import { execFileSync } from 'node:child_process'
import { existsSync, linkSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import Papa from 'papaparse'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkOutputPath, writeOutputFiles } from '../../../src/main/files/output-file'
import { importFile } from '../../../src/main/import'
import { Project } from '../../../src/main/store/project'
import { runCli } from '../../support/cli'
import { importLabelledPairs, writeJsonl } from '../../support/pairs'
import { tempDir } from '../../support/tmp'

/** A project with two labelled pairs and answers whose comments start like spreadsheet formulas. */
async function labelledProject(path: string, dir: string, answers = true): Promise<void> {
  const project = await Project.create(path)
  try {
    expect((await importLabelledPairs(project, dir)).errors).toEqual([])
    if (!answers) return
    const labels = join(dir, 'answers.jsonl')
    writeJsonl(labels, [
      { item: 'p1', instrument: 'pairwise-preference', source: 'Dr Ada', source_kind: 'human', judgement: { verdict: 'a_better', analysis: '=HYPERLINK("http://x.example","y")' } },
      { item: 'p2', instrument: 'pairwise-preference', source: 'Dr Ada', source_kind: 'human', judgement: { verdict: 'b_better', analysis: "'@SUM(1)" } }
    ])
    expect((await importFile(project, 'labels', labels)).errors).toEqual([])
  } finally {
    project.close()
  }
}

describe('files written at a path the user names', () => {
  let tmp: ReturnType<typeof tempDir>
  let project: string
  beforeEach(async () => {
    tmp = tempDir('assay-safe-out-')
    project = tmp.file('p.assay')
    await labelledProject(project, tmp.dir)
  })
  afterEach(() => tmp.cleanup())

  const bytes = (p: string) => readFileSync(p)

  it('never writes an export over the project itself, even with --force', async () => {
    const before = bytes(project)
    for (const extra of [[], ['--force']]) {
      const r = await runCli('export', project, 'labels', '--out', project, ...extra)
      expect(r.code).toBe(1)
      expect(r.stderr).toMatch(/open project|SQLite database/)
    }
    expect(bytes(project).equals(before)).toBe(true)
    expect((await runCli('info', project)).code).toBe(0)
  })

  it('never writes over another project or any SQLite file, even with --force', async () => {
    const other = tmp.file('other.assay')
    ;(await Project.create(other)).close()
    const before = bytes(other)
    for (const args of [
      ['export', project, 'labels', '--out', other, '--force'],
      ['report', project, '--instrument', 'pairwise-preference', '--html', other, '--force']
    ]) {
      const r = await runCli(...args)
      expect(r.code).toBe(1)
      expect(r.stderr).toContain('SQLite database')
    }
    expect(bytes(other).equals(before)).toBe(true)
  })

  it('refuses a symlink or hard link to the open project', async () => {
    const link = tmp.file('alias.jsonl')
    symlinkSync(project, link)
    const hard = tmp.file('hard.jsonl')
    linkSync(project, hard)
    const before = bytes(project)
    expect(() => checkOutputPath(link, { force: true, protect: [project] })).toThrow(/open project|SQLite/)
    expect(() => checkOutputPath(hard, { force: true, protect: [project] })).toThrow(/open project|SQLite/)
    expect(bytes(project).equals(before)).toBe(true)
  })

  it('replaces an existing export, card or HTML report only with --force', async () => {
    const out = tmp.file('labels.jsonl')
    expect((await runCli('export', project, 'labels', '--out', out)).code).toBe(0)
    writeFileSync(out, 'mine')
    const again = await runCli('export', project, 'labels', '--out', out)
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('--force')
    expect(readFileSync(out, 'utf8')).toBe('mine')
    expect((await runCli('export', project, 'labels', '--out', out, '--force')).code).toBe(0)
    expect(readFileSync(out, 'utf8')).toContain('"item":"p1"')

    // The card beside a new export name is an existing file too: nothing is written, not even the export.
    const card = tmp.file('fresh.card.md')
    writeFileSync(card, 'my notes')
    const blocked = await runCli('export', project, 'labels', '--out', tmp.file('fresh.jsonl'))
    expect(blocked.code).toBe(1)
    expect(existsSync(tmp.file('fresh.jsonl'))).toBe(false)
    expect(readFileSync(card, 'utf8')).toBe('my notes')

    const html = tmp.file('report.html')
    writeFileSync(html, 'old')
    const report = await runCli('report', project, '--instrument', 'pairwise-preference', '--html', html)
    expect(report.code).toBe(1)
    expect(readFileSync(html, 'utf8')).toBe('old')
    expect((await runCli('report', project, '--instrument', 'pairwise-preference', '--html', html, '--force')).code).toBe(0)
    expect(readFileSync(html, 'utf8')).toContain('<html')
  })

  it('logs no exposure for an export it refused', async () => {
    const p = await Project.open(project)
    p.db.prepare(`UPDATE items SET split = 'test'`).run()
    p.close()
    const out = tmp.file('taken.jsonl')
    writeFileSync(out, 'mine')
    expect((await runCli('export', project, 'labels', '--out', out)).code).toBe(1)
    const exposures = async () => {
      const q = await Project.open(project)
      try {
        return (q.db.prepare(`SELECT count(*) AS n FROM exposures`).get() as { n: number }).n
      } finally {
        q.close()
      }
    }
    expect(await exposures()).toBe(0)
    expect((await runCli('export', project, 'labels', '--out', tmp.file('fresh.jsonl'))).code).toBe(0)
    expect(await exposures()).toBe(2)
  })

  it("never writes over another database's -wal, -shm or -journal file, even with --force", async () => {
    const other = tmp.file('other.assay')
    const open = await Project.create(other)
    try {
      // The other project is open, so its -wal holds committed pages; its -shm and a -journal are written too.
      writeFileSync(`${other}-journal`, 'journal pages')
      for (const suffix of ['-wal', '-shm', '-journal']) {
        const target = `${other}${suffix}`
        expect(existsSync(target)).toBe(true)
        const before = bytes(target)
        const r = await runCli('export', project, 'labels', '--out', target, '--force')
        expect(r.code).toBe(1)
        expect(r.stderr).toContain('belongs to the SQLite database')
        expect(bytes(target).equals(before)).toBe(true)
      }
      // A write-ahead log is known by its header even where its database is gone.
      const orphan = tmp.file('moved.jsonl')
      writeFileSync(orphan, Buffer.concat([Buffer.from([0x37, 0x7f, 0x06, 0x82]), Buffer.alloc(28)]))
      expect((await runCli('export', project, 'labels', '--out', orphan, '--force')).code).toBe(1)
    } finally {
      open.close()
    }
  })

  it('never writes onto a device, a pipe, a socket or a folder, even with --force', async () => {
    const fifo = tmp.file('pipe.jsonl')
    execFileSync('mkfifo', [fifo])
    const sock = tmp.file('sock.jsonl')
    const server = createServer()
    await new Promise<void>((done) => server.listen(sock, done))
    // The device is named through a link of our own: were the guard ever to fail, the rename would replace the link,
    // never the machine's /dev/null.
    const device = tmp.file('null.jsonl')
    symlinkSync('/dev/null', device)
    try {
      for (const target of [device, fifo, sock, tmp.dir]) {
        const r = await runCli('export', project, 'labels', '--out', target, '--force')
        expect(r.code, target).toBe(1)
        expect(r.stderr).toMatch(/not a regular file|is a folder/)
      }
      expect(lstatSync(fifo).isFIFO()).toBe(true)
      expect(lstatSync(device).isSymbolicLink()).toBe(true)
      expect(statSync(device).isCharacterDevice()).toBe(true)
    } finally {
      await new Promise((done) => server.close(done))
    }
  })

  it('keeps the temporary name short beside a long target name', () => {
    const name = `${'é'.repeat(120)}.jsonl`
    const [written] = writeOutputFiles([{ path: tmp.file(name), content: 'x' }])
    expect(readFileSync(written!, 'utf8')).toBe('x')
  })

  it('leaves no temporary file behind when a write fails', () => {
    const dir = tmp.file('nested')
    expect(() =>
      writeOutputFiles([
        { path: tmp.file('a.txt'), content: 'a' },
        { path: join(dir, 'missing', 'b.txt'), content: 'b' }
      ])
    ).toThrow()
    expect(readdirSync(tmp.dir).filter((f) => f.includes('partial') || f === 'a.txt')).toEqual([])
  })
})

describe('CSV exports and spreadsheet formulas', () => {
  let tmp: ReturnType<typeof tempDir>
  let project: string
  beforeEach(async () => {
    tmp = tempDir('assay-formula-')
    project = tmp.file('p.assay')
    await labelledProject(project, tmp.dir)
  })
  afterEach(() => tmp.cleanup())

  const comments = (path: string) =>
    Papa.parse<Record<string, string>>(readFileSync(path, 'utf8'), { header: true, skipEmptyLines: true })
      .data.filter((r) => r.source_kind === 'human')
      .map((r) => r.analysis)

  it('escapes formula-leading cells by default, keeps plain numbers, and imports back unchanged', async () => {
    const out = tmp.file('labels.csv')
    expect((await runCli('export', project, 'labels', '--out', out)).code).toBe(0)
    expect(comments(out)).toEqual(['\'=HYPERLINK("http://x.example","y")', "''@SUM(1)"])
    const target = tmp.file('target.assay')
    await labelledProject(target, tmp.dir, false)
    const p = await Project.open(target)
    try {
      const back = await importFile(p, 'labels', out)
      expect(back.errors).toEqual([])
      expect(back.labels).toBe(2)
      const stored = (p.db.prepare(`SELECT judgement FROM annotations ORDER BY rowid`).all() as { judgement: string }[]).map((r) => JSON.parse(r.judgement).analysis)
      expect(stored).toEqual(['=HYPERLINK("http://x.example","y")', "'@SUM(1)"])
    } finally {
      p.close()
    }
  })

  it('writes cells verbatim with --raw-cells', async () => {
    const out = tmp.file('raw.csv')
    expect((await runCli('export', project, 'labels', '--out', out, '--raw-cells')).code).toBe(0)
    expect(comments(out)).toEqual(['=HYPERLINK("http://x.example","y")', "'@SUM(1)"])
  })
})
