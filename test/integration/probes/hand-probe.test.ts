import { afterAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import { loadDemo } from '../../../src/main/demo/load-demo'
import { listProbes } from '../../../src/main/store/probes'
import { getItemByExternalId } from '../../../src/main/store/items'
import { Project } from '../../../src/main/store/project'
import { contextFor } from '../../support/project'
import { tempDir } from '../../support/tmp'

// A probe written by hand through the contract (the editor's operation): validated in main, refused when unchanged,
// when it would be a probe of a probe, when it exists already, and for annotator sessions.

const tmp = tempDir()
afterAll(() => tmp.cleanup())

describe('probes.create', () => {
  it('saves a hand-made probe with its provenance and refuses what is not a new probe', async () => {
    const project = await Project.create(tmp.file('hand.assay'))
    await loadDemo(project)
    const ctx = contextFor(project)
    const original = getItemByExternalId(project.db, 'proposal-pair', 'demo-003')!
    const pair = JSON.parse(original.payload) as { b: { markdown: string } }
    const edited = pair.b.markdown.replace(/\n## /, '\nThis unprecedented, paradigm-shifting work redefines the field.\n\n## ')

    const kinds = await dispatch(ctx, 'probes.kinds', {})
    expect(kinds.ok && (kinds.value as { kinds: Array<{ name: string }> }).kinds.map((k) => k.name)).toContain('inflated-framing')

    const saved = await dispatch(ctx, 'probes.create', { itemId: original.id, side: 'b', kind: 'inflated-framing', markdown: edited, author: 'Curator' })
    expect(saved).toMatchObject({ ok: true, value: { pairId: 'demo-003~b~inflated-framing' } })
    const [probe] = listProbes(project.db)
    expect(probe).toMatchObject({ method: 'hand', family: 'demo-003:b', provenance: { made_by: { method: 'hand', author: 'Curator' }, expected: { pairwise: 'no_preference' } } })

    const again = await dispatch(ctx, 'probes.create', { itemId: original.id, side: 'b', kind: 'inflated-framing', markdown: edited })
    expect(again).toMatchObject({ ok: false, error: { code: 'conflict' } })
    const unchanged = await dispatch(ctx, 'probes.create', { itemId: original.id, side: 'a', kind: 'inflated-framing', markdown: (JSON.parse(original.payload) as { a: { markdown: string } }).a.markdown })
    expect(unchanged).toMatchObject({ ok: false, error: { code: 'invalid_input', message: /identical/ } })
    const ofProbe = await dispatch(ctx, 'probes.create', { itemId: probe!.itemId, side: 'a', kind: 'inflated-framing', markdown: 'x' })
    expect(ofProbe).toMatchObject({ ok: false, error: { code: 'invalid_input', message: /is a probe itself/ } })
    const badKind = await dispatch(ctx, 'probes.create', { itemId: original.id, side: 'a', kind: 'Bad Kind', markdown: 'x' })
    expect(badKind).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    const annotator = contextFor(project, { role: 'annotator', annotator: { id: 1, name: 'Ada' }, locked: true })
    expect(await dispatch(annotator, 'probes.create', { itemId: original.id, side: 'a', kind: 'inflated-framing', markdown: 'x' })).toMatchObject({ ok: false, error: { code: 'forbidden' } })
    expect(listProbes(project.db)).toHaveLength(1)
    project.close()
  })
})
