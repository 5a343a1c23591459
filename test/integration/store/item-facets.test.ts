import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { curatorSession, type ApiContext } from '../../../src/main/api/context'
import { dispatch } from '../../../src/main/api/dispatch'
import { EventHub } from '../../../src/main/events'
import { insertItems } from '../../../src/main/store/items'
import { Project } from '../../../src/main/store/project'
import { tempDir } from '../../support/tmp'

// The facets the item browser filters by: each kind, set and split present, once, sorted.

let tmp: ReturnType<typeof tempDir>
let project: Project
beforeEach(async () => {
  tmp = tempDir()
  project = await Project.create(tmp.file('f.assay'))
})
afterEach(() => {
  project.close()
  tmp.cleanup()
})

const pair = (id: string, set: string, split: 'dev' | 'test' | 'none') => ({
  kind: 'proposal-pair' as const,
  externalId: id,
  set,
  split,
  payload: { pair_id: id, a: { markdown: 'a' }, b: { markdown: 'b' } }
})

describe('items.facets', () => {
  it('lists each kind, set and split of the items once, sorted; nothing for an empty project', async () => {
    const ctx: ApiContext = { project, session: curatorSession(), events: new EventHub() }
    expect(await dispatch(ctx, 'items.facets', {})).toEqual({ ok: true, value: { kinds: [], sets: [], splits: [] } })
    project.write((db) => insertItems(db, [pair('p1', 'zeta', 'test'), pair('p2', 'alpha', 'dev'), pair('p3', 'zeta', 'dev')]))
    project.write((db) => insertItems(db, [{ kind: 'idea', externalId: 'i1', set: 'ideas', split: 'none', payload: { idea: 'An idea', keywords: ['k'] } }]))
    expect(await dispatch(ctx, 'items.facets', {})).toEqual({ ok: true, value: { kinds: ['idea', 'proposal-pair'], sets: ['alpha', 'ideas', 'zeta'], splits: ['dev', 'none', 'test'] } })
  })
})
