import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import { handlers } from '../../../src/main/api/handlers'
import { loadHandler } from '../../../src/main/api/handlers/load'
import { OPERATION_NAMES, operations, type OperationName } from '../../../src/shared/contract/operations'
import { createClient, type Transport } from '../../../src/shared/contract/client'
import { AssayError } from '../../../src/shared/errors'
import type { Project } from '../../../src/main/store/project'
import { contextFor, smallProject } from '../../support/project'
import { tempDir } from '../../support/tmp'

let tmp: ReturnType<typeof tempDir>
let project: Project

beforeEach(async () => {
  tmp = tempDir()
  project = await smallProject(tmp.file('p.assay'))
})
afterEach(() => {
  project.close()
  tmp.cleanup()
})

describe('the contract', () => {
  it('has exactly one handler per operation', () => {
    expect(Object.keys(handlers).sort()).toEqual([...OPERATION_NAMES].sort())
    for (const name of OPERATION_NAMES) expect(['any', 'curator', 'annotator']).toContain(operations[name].access)
  })

  it('loads each operation\'s handler with its group, the same one the full table holds', async () => {
    for (const name of OPERATION_NAMES) expect(await loadHandler(name), name).toBe(handlers[name])
  })

  it('answers an unknown operation with a typed error, not a crash', async () => {
    const env = await dispatch(contextFor(project), 'items.drop', {})
    expect(env).toEqual({ ok: false, error: { code: 'unknown_operation', message: 'Unknown operation "items.drop"' } })
  })

  it('validates input in main and names the field', async () => {
    const env = await dispatch(contextFor(project), 'items.list', { limit: -3, kind: 'nonsense' })
    expect(env.ok).toBe(false)
    if (env.ok) return
    expect(env.error.code).toBe('invalid_input')
    const fields = env.error.details?.map((d) => d.field)
    expect(fields).toContain('limit')
    expect(fields).toContain('kind')
  })

  it('refuses unknown keys (strict inputs)', async () => {
    const env = await dispatch(contextFor(project), 'items.get', { id: 1, extra: true })
    expect(env.ok).toBe(false)
  })

  it('refuses curator operations to an annotator session', async () => {
    const ctx = contextFor(project, { role: 'annotator', annotator: { id: 1, name: 'x' }, locked: true })
    const env = await dispatch(ctx, 'items.list', {})
    expect(env).toMatchObject({ ok: false, error: { code: 'forbidden' } })
    const role = await dispatch(ctx, 'session.setRole', { role: 'curator' })
    expect(role).toMatchObject({ ok: false, error: { code: 'forbidden' } })
  })

  it('refuses every curator operation to an annotator session before reading its input', async () => {
    const ctx = contextFor(project, { role: 'annotator', annotator: { id: 1, name: 'x' }, locked: true })
    const curator = (Object.keys(operations) as OperationName[]).filter((name) => operations[name].access === 'curator')
    expect(curator).toEqual(expect.arrayContaining(['probes.make', 'probes.export', 'export.table', 'export.training', 'prices.set']))
    for (const name of curator) {
      const env = await dispatch(ctx, name, {})
      expect(env, name).toMatchObject({ ok: false, error: { code: 'forbidden' } })
    }
  })

  it('lists, filters and searches items through the typed client', async () => {
    const ctx = contextFor(project)
    const transport: Transport = { invoke: (op, input) => dispatch(ctx, op, input), subscribe: () => () => {} }
    const api = createClient(transport)
    expect((await api['items.list']({})).total).toBe(3)
    expect((await api['items.list']({ kind: 'idea' })).total).toBe(2)
    expect((await api['items.list']({ split: 'test' })).rows.map((r) => r.external_id)).toEqual(['pair-1'])
    expect((await api['items.list']({ text: 'ENZYME' })).rows.map((r) => r.external_id)).toEqual(['idea-1'])
    // Search must not match hidden fields (the generator of proposal B).
    expect((await api['items.list']({ text: 'model-x' })).total).toBe(0)
    await expect(api['items.get']({ id: 999 })).rejects.toBeInstanceOf(AssayError)
  })

  it('withholds labels of test items and logs an exposure when they are revealed', async () => {
    const ctx = contextFor(project)
    const item = await dispatch(ctx, 'items.get', { id: 1 })
    expect(item.ok).toBe(true)
    if (!item.ok) return
    const detail = item.value as { payload: Record<string, any>; withheld: string[] }
    expect(detail.withheld).toEqual(['label', 'probe', 'a.citations'])
    expect(detail.payload.label).toBeUndefined()
    expect(detail.payload.a.citations).toBeUndefined()
    expect(project.info().exposures).toBe(0)
    const revealed = await dispatch(ctx, 'items.reveal', { id: 1 })
    expect(revealed).toEqual({ ok: true, value: { labels: { label: 'a_better', probe: 'formula-error', 'a.citations': 12 } } })
    expect(project.info().exposures).toBe(1)
  })

  it('switches to annotator mode by name, creating the profile once', async () => {
    const ctx = contextFor(project)
    const s = await dispatch(ctx, 'session.setRole', { role: 'annotator', annotator: 'Dr. Ada' })
    expect(s).toMatchObject({ ok: true, value: { role: 'annotator', annotator: { name: 'Dr. Ada' } } })
    await dispatch(ctx, 'session.setRole', { role: 'curator' })
    await dispatch(ctx, 'session.setRole', { role: 'annotator', annotator: 'Dr. Ada' })
    expect(project.info().annotators).toBe(1)
  })
})
