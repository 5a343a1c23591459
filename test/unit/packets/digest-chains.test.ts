import { describe, expect, it } from 'vitest'
import { parentsFirst } from '../../../src/main/packets/chains'
import { assignmentDigest, sha256Hex, stableStringify, viewDigest } from '../../../src/main/packets/digest'

describe('stable digests', () => {
  it('serialises objects with sorted keys at every level, arrays in order', () => {
    expect(stableStringify({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}')
    expect(stableStringify({ a: undefined, b: 'x' })).toBe('{"b":"x"}')
    expect(viewDigest({ a: { markdown: 'x' }, b: { markdown: 'y' } })).toBe(viewDigest({ b: { markdown: 'y' }, a: { markdown: 'x' } }))
    expect(viewDigest({ a: { markdown: 'x' }, b: { markdown: 'y' } })).not.toBe(viewDigest({ a: { markdown: 'y' }, b: { markdown: 'x' } }))
  })

  it('hashes with sha256 (reference vector)', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  })

  it('changes with any assignment, item, instrument, view, annotator or project; not with list order', () => {
    const head = { packetId: 'p1', projectId: 'proj', annotator: 'Ada' }
    const entries = [
      { opaqueId: 'item-1', itemId: 10, instrumentId: 'pairwise-preference', viewDigest: 'v1' },
      { opaqueId: 'item-2', itemId: 11, instrumentId: 'flaw-audit', viewDigest: 'v2' }
    ]
    const base = assignmentDigest(head, entries)
    expect(assignmentDigest(head, [...entries].reverse())).toBe(base)
    const variants = [
      assignmentDigest(head, entries.slice(1)),
      assignmentDigest(head, [...entries, { opaqueId: 'item-3', itemId: 12, instrumentId: 'flaw-audit', viewDigest: 'v3' }]),
      assignmentDigest(head, [{ ...entries[0]!, itemId: 12 }, entries[1]!]),
      assignmentDigest(head, [{ ...entries[0]!, instrumentId: 'flaw-audit' }, entries[1]!]),
      assignmentDigest(head, [{ ...entries[0]!, viewDigest: 'v9' }, entries[1]!]),
      assignmentDigest(head, [{ ...entries[0]!, opaqueId: 'item-9' }, entries[1]!]),
      assignmentDigest({ ...head, annotator: 'Ben' }, entries),
      assignmentDigest({ ...head, projectId: 'other' }, entries),
      assignmentDigest({ ...head, packetId: 'p2' }, entries)
    ]
    expect(new Set([base, ...variants]).size).toBe(variants.length + 1)
  })
})

describe('revision chains, parents first', () => {
  const row = (id: string, supersedes: string | null, created_at: string) => ({ id, supersedes, created_at })

  it('puts every row after the row it supersedes even when its time is earlier', () => {
    // r3 was made offline before r2 but merged after it, so it supersedes r2.
    const rows = [row('r3', 'r2', '2026-01-01T10:00:00Z'), row('r1', null, '2026-01-01T09:00:00Z'), row('r2', 'r1', '2026-01-01T11:00:00Z')]
    const { ordered, unreachable } = parentsFirst(rows)
    expect(ordered.map((r) => r.id)).toEqual(['r1', 'r2', 'r3'])
    expect(unreachable).toEqual([])
  })

  it('treats a row revising something outside the set as a root, and reports loops', () => {
    const { ordered, unreachable } = parentsFirst([
      row('b', 'outside', '2026-01-02T00:00:00Z'),
      row('x', 'y', '2026-01-01T00:00:00Z'),
      row('y', 'x', '2026-01-01T00:00:01Z'),
      row('c', 'b', '2026-01-01T00:00:00Z')
    ])
    expect(ordered.map((r) => r.id)).toEqual(['b', 'c'])
    expect(unreachable.map((r) => r.id)).toEqual(['x', 'y'])
  })
})
