import { writeFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { importFile } from '../../../src/main/import'
import { Project } from '../../../src/main/store/project'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'

const side = (origin: string) => ({ markdown: `A ${origin} proposal.`, origin })
const answer = (item: string, source: string, verdict: string, sourceKind = 'human') =>
  JSON.stringify({ item, instrument: 'pairwise-preference', source, source_kind: sourceKind, judgement: { verdict } })

describe('importing the same labels file again', () => {
  let tmp: ReturnType<typeof tempDir>
  let file: string
  const rows = async () => {
    const p = await Project.open(file)
    try {
      return (p.db.prepare(`SELECT count(*) AS n FROM annotations`).get() as { n: number }).n
    } finally {
      p.close()
    }
  }
  beforeEach(async () => {
    tmp = tempDir('assay-reimport-')
    file = tmp.file('p.assay')
    const project = await Project.create(file)
    try {
      const pairs = tmp.file('pairs.jsonl')
      writeFileSync(pairs, ['p1', 'p2', 'p3', 'p4'].map((id) => JSON.stringify({ pair_id: id, a: side('human'), b: side('ai') })).join('\n'))
      expect((await importFile(project, 'pairs', pairs)).errors).toEqual([])
    } finally {
      project.close()
    }
  })
  afterEach(() => tmp.cleanup())

  it('adds identical answers once and reports them as unchanged afterwards', async () => {
    const labels = tmp.file('labels.jsonl')
    const lines = ['p1', 'p2', 'p3', 'p4'].flatMap((id) => [answer(id, 'Dr Ada', 'a_better'), answer(id, 'judge-x', 'b_better', 'model')])
    writeFileSync(labels, lines.join('\n'))
    expect((await runCli('import', file, 'labels', labels)).code).toBe(0)
    expect(await rows()).toBe(8)
    for (let i = 0; i < 2; i++) {
      const again = await runCli('import', file, 'labels', labels)
      expect(again.code).toBe(0)
      expect(again.stdout).toContain('8 unchanged')
    }
    expect(await rows()).toBe(8)

    // A changed answer from the same source is a new revision; the rest stay unchanged.
    writeFileSync(labels, [answer('p1', 'Dr Ada', 'b_better'), ...lines.slice(1)].join('\n'))
    const changed = await runCli('import', file, 'labels', labels)
    expect(changed.stdout).toContain('7 unchanged')
    expect(await rows()).toBe(9)
  })

  it('does not add the same answer twice from one file', async () => {
    const labels = tmp.file('twice.jsonl')
    writeFileSync(labels, [answer('p1', 'Dr Ada', 'a_better'), answer('p1', 'Dr Ada', 'a_better')].join('\n'))
    expect((await runCli('import', file, 'labels', labels)).code).toBe(0)
    expect(await rows()).toBe(1)
  })
})
