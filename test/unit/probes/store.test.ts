import { afterAll, describe, expect, it } from 'vitest'
import { defineProbeKind, getProbeKind, listProbeKinds } from '../../../src/main/store/probe-kinds'
import { insertItems } from '../../../src/main/store/items'
import { Project } from '../../../src/main/store/project'
import { tempDir } from '../../support/tmp'

const tmp = tempDir()
afterAll(() => tmp.cleanup())

const KIND = { name: 'sample-size', title: 'Inflated sample size', instruction: 'Multiply the stated sample size by ten.', pairwise: 'original_better' as const, flaw: { type: 'flawed_design', severity: 'major' as const } }

describe('probe kinds and the probes table', () => {
  it('versions a project-defined kind: a changed definition is a new version, an unchanged one adds nothing', async () => {
    const project = await Project.create(tmp.file('kinds.assay'))
    const first = project.write((db) => defineProbeKind(db, KIND))
    expect(first).toMatchObject({ added: true, kind: { name: 'sample-size', version: 1, builtin: false } })
    expect(project.write((db) => defineProbeKind(db, KIND)).added).toBe(false)
    const second = project.write((db) => defineProbeKind(db, { ...KIND, flaw: { type: 'flawed_design', severity: 'fatal' } }))
    expect(second.kind.version).toBe(2)
    expect(getProbeKind(project.db, 'sample-size')).toMatchObject({ version: 2, flaw: { severity: 'fatal' } })
    expect(listProbeKinds(project.db).map((k) => `${k.name}@${k.version}`)).toEqual([
      'formula-error@1',
      'inflated-framing@1',
      'prior-art-duplicate@1',
      'citation-fabrication@1',
      'sample-size@2'
    ])
    expect(() => project.write((db) => defineProbeKind(db, { ...KIND, name: 'formula-error' }))).toThrow(/built-in/)
    expect(() => getProbeKind(project.db, 'no-such')).toThrow(/Unknown probe kind "no-such" \(known: formula-error/)
    project.close()
  })

  it('refuses a probe that names itself as its original, and an unknown way of making it', async () => {
    const project = await Project.create(tmp.file('table.assay'))
    const pair = { pair_id: 'p', a: { markdown: 'a' }, b: { markdown: 'b' } }
    const [id] = project.write((db) => insertItems(db, [{ kind: 'proposal-pair', externalId: 'p', set: 's', split: 'none', payload: pair }]))
    const insert = (original: number, method: string) =>
      project.db
        .prepare(`INSERT INTO probes (item_id, original_item_id, original_side, probe_family, kind, kind_version, method, provenance) VALUES (?, ?, 'a', 'p:a', 'formula-error', 1, ?, '{}')`)
        .run(id, original, method)
    expect(() => insert(id!, 'deterministic')).toThrow(/CHECK constraint/)
    expect(() => insert(id!, 'guessed')).toThrow(/CHECK constraint/)
    project.close()
  })
})
