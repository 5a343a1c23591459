import { describe, expect, it } from 'vitest'
import type { Envelope } from '../../../src/shared/contract/client'
import { AssayError } from '../../../src/shared/errors'
import { rendererClient } from '../../../src/renderer/src/api-client'

describe("the renderer's client", () => {
  const calls: Array<[string, unknown]> = []
  const answers: Record<string, Envelope> = {
    'session.get': { ok: true, value: { role: 'curator' } },
    'items.get': { ok: false, error: { code: 'not_found', message: 'no item 9', details: [{ field: 'id', message: 'unknown' }] } },
    'queue.item': { ok: false, error: { code: 'no such code', message: 'x' } as never }
  }
  const listened: string[] = []
  const api = rendererClient(
    async (op, input) => {
      calls.push([op, input])
      return answers[op] ?? { ok: false, error: { code: 'unknown_operation', message: op } }
    },
    (event, listener) => {
      listened.push(event)
      listener({ what: 'items' })
      return () => undefined
    }
  )

  it('calls an operation by its name, with {} for no input, and returns its value', async () => {
    await expect(api['session.get']({})).resolves.toEqual({ role: 'curator' })
    await api['settings.get'](undefined as never).catch(() => undefined)
    expect(calls.slice(-1)).toEqual([['settings.get', {}]])
    expect(api['session.get']).toBe(api['session.get'])
  })

  it("rethrows main's error as an AssayError with its code and fields, and a malformed one as internal", async () => {
    const e = await api['items.get']({ id: 9 }).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(AssayError)
    expect(e).toMatchObject({ code: 'not_found', message: 'no item 9', details: [{ field: 'id', message: 'unknown' }] })
    await expect(api['queue.item']({ assignmentId: 1 })).rejects.toMatchObject({ code: 'internal' })
  })

  it('is never taken for a promise or an operation it cannot be', async () => {
    const held = api as unknown as Record<string, unknown>
    expect(held.then).toBeUndefined()
    expect(held.toJSON).toBeUndefined()
    // Returning it from an async function must not call anything.
    const before = calls.length
    await (async () => api)()
    expect(calls.length).toBe(before)
  })

  it('subscribes to the one event asked for', () => {
    const seen: unknown[] = []
    api.on('project.changed', (p) => seen.push(p))
    expect(listened).toEqual(['project.changed'])
    expect(seen).toEqual([{ what: 'items' }])
  })
})
