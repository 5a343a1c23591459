import { writeFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Project } from '../../../src/main/store/project'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'

// `assay import --skip-existing`: items whose id the project already has are left out and counted; the rest of the
// file is imported. Without the flag such a file is refused whole, and any other problem still refuses it whole.

const question = (id: string) => JSON.stringify({ question_id: id, question: `Question ${id}?` })

describe('assay import --skip-existing', () => {
  let tmp: ReturnType<typeof tempDir>
  let file: string
  const ids = async () => {
    const p = await Project.open(file)
    try {
      return (p.db.prepare('SELECT external_id FROM items ORDER BY external_id').all() as Array<{ external_id: string }>).map((r) => r.external_id)
    } finally {
      p.close()
    }
  }
  beforeEach(async () => {
    tmp = tempDir('assay-skip-existing-')
    file = tmp.file('p.assay')
    ;(await Project.create(file)).close()
    const first = tmp.file('first.jsonl')
    writeFileSync(first, [question('Q1'), question('Q2')].join('\n'))
    expect((await runCli('import', file, 'questions', first)).code).toBe(0)
  })
  afterEach(() => tmp.cleanup())

  it('refuses the file over the two rows the project has, and says how to import the rest', async () => {
    const data = tmp.file('more.jsonl')
    writeFileSync(data, [question('Q1'), question('Q2'), question('Q3')].join('\n'))
    const r = await runCli('import', file, 'questions', data)
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('research-question "Q1" is already in the project')
    expect(r.stderr).toContain('add --skip-existing')
    expect(await ids()).toEqual(['Q1', 'Q2'])
  })

  it('imports the rest with the flag, counting what it left out', async () => {
    const data = tmp.file('more.jsonl')
    writeFileSync(data, [question('Q1'), question('Q2'), question('Q3')].join('\n'))
    const r = await runCli('import', file, 'questions', data, '--skip-existing', '--json')
    expect(r.code).toBe(0)
    const report = JSON.parse(r.stdout) as { imported: number; skipped: number; warnings: Array<{ message: string }> }
    expect(report).toMatchObject({ imported: 1, skipped: 2 })
    expect(report.warnings.map((w) => w.message)).toEqual(['2 items already in the project left out, not imported again (first: research-question "Q1")'])
    expect(await ids()).toEqual(['Q1', 'Q2', 'Q3'])
    const plain = await runCli('import', file, 'questions', data, '--skip-existing')
    expect(plain.stdout).toContain('Imported 0 items')
    expect(plain.stdout).toContain('3 skipped (3 already in the project)')
  })

  it('still refuses the whole file for any other problem', async () => {
    const data = tmp.file('bad.jsonl')
    writeFileSync(data, [question('Q1'), question('Q4'), JSON.stringify({ question_id: 'Q5' })].join('\n'))
    const r = await runCli('import', file, 'questions', data, '--skip-existing')
    expect(r.code).toBe(1)
    expect(await ids()).toEqual(['Q1', 'Q2'])
  })
})
