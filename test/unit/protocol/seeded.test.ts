import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  OMEGA_LENSES,
  SHA256_MOD_V1,
  BUCKET_HASHES,
  canonicalSide,
  canonicalVerdict,
  displayPair,
  invertOrder,
  labelledOrder,
  omegaAssignment,
  preferredSide,
  seededOrder,
  seededShuffle,
  seededUnit,
  sha256Hex,
  shouldSwap
} from '../../../src/shared/protocol'
import { builtIn } from '../templates/support/load-templates'

// Reference values computed with Python's hashlib (the IdeaEval formula) unless stated otherwise.

const PAIR = 'hva_v1_glm5_1_claude_code__l1_009_06_03_w1__2509.09754'

describe('IdeaEval display order', () => {
  it('reproduces the published test vector bit for bit', () => {
    expect(seededUnit(42, PAIR)).toBe(0.4733822441953193)
    expect(seededUnit('42', PAIR)).toBe(0.4733822441953193)
    expect(shouldSwap(42, PAIR)).toBe(true)
  })

  it('matches Python on further vectors', () => {
    expect(seededUnit(0, 'pair-1')).toBe(0.9691393400503211)
    expect(seededUnit(7, 'pair-1')).toBe(0.032931291031991)
    expect(seededUnit(42, 'pair-2')).toBe(0.36125819281866617)
    expect(seededUnit('run-a', 'x:p')).toBe(0.2450335163296448)
    expect(shouldSwap(0, 'pair-1')).toBe(false)
    expect(shouldSwap(7, 'pair-1')).toBe(true)
  })

  it('hashes UTF-8 like node:crypto', () => {
    for (const text of ['', 'abc', 'Größe — 衰老', PAIR]) {
      expect(sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'))
    }
  })

  it('refuses a numeric seed Python would print differently', () => {
    expect(() => seededUnit(1.5, 'k')).toThrow(RangeError)
    expect(() => seededUnit(2 ** 60, 'k')).toThrow(RangeError)
  })

  it('maps a verdict given in display order back to the canonical order', () => {
    // The worked pair: swapped, so A shown = the AI proposal (canonical b). A judge preferring the human proposal
    // (shown as B) answers B_better; canonically that is A_better, matching the label a_better.
    const swapped = shouldSwap(42, PAIR)
    expect(displayPair('human LAVa', 'AI SGA', swapped)).toEqual({ A: 'AI SGA', B: 'human LAVa' })
    expect(canonicalVerdict('B_better', swapped)).toBe('A_better')
    expect(canonicalVerdict('A_much_better', swapped)).toBe('B_much_better')
    expect(canonicalVerdict('B_much_better', false)).toBe('B_much_better')
    expect(canonicalSide('A', true)).toBe('B')
    expect(canonicalSide('B', false)).toBe('B')
    expect(preferredSide('B_much_better')).toBe('B')
    expect(preferredSide('A_better')).toBe('A')
  })
})

describe('seeded shuffle (sha256-sort-v1)', () => {
  it('matches the reference orders', () => {
    expect(seededOrder(42, 'set-1', 5)).toEqual({ method: 'sha256-sort-v1', order: [4, 1, 2, 0, 3] })
    expect(seededOrder(42, 'set-2', 5).order).toEqual([1, 2, 3, 4, 0])
    expect(seededOrder('s', 'H:task-9', 5).order).toEqual([4, 0, 1, 2, 3])
  })

  it('shuffles items by that order and maps labels back to ids', () => {
    expect(seededShuffle(42, 'set-1', ['h1', 'h2', 'h3', 'h4', 'h5'])).toEqual(['h5', 'h2', 'h3', 'h1', 'h4'])
    const labelled = labelledOrder(42, 'set-1', ['h1', 'h2', 'h3', 'h4', 'h5'], 'P')
    expect(labelled.shown.map((s) => `${s.label}=${s.id}`)).toEqual(['P1=h5', 'P2=h2', 'P3=h3', 'P4=h1', 'P5=h4'])
    expect(labelled.idOfLabel.P4).toBe('h1')
    expect(invertOrder([4, 1, 2, 0, 3])).toEqual([3, 1, 2, 4, 0])
  })

  it('is a permutation, handles empty lists, and spreads first places evenly', () => {
    expect(seededOrder(1, 'k', 0).order).toEqual([])
    const firsts = [0, 0, 0, 0, 0]
    for (let s = 0; s < 2000; s++) {
      const { order } = seededOrder(s, 'set', 5)
      expect([...order].sort()).toEqual([0, 1, 2, 3, 4])
      firsts[order[0] ?? 0]! += 1
    }
    // Each of 5 positions expects 400 of 2000; 4 standard deviations is about +-72.
    for (const n of firsts) expect(Math.abs(n - 400)).toBeLessThan(72)
  })
})

function referenceBucket(purpose: string, key: string, buckets: number): number {
  const hex = createHash('sha256').update(`${purpose}:${key}`, 'utf8').digest('hex').slice(0, 16)
  return Number(BigInt(`0x${hex}`) % BigInt(buckets))
}

describe('Omega Point lens and fourth role (sha256-mod-v1)', () => {
  it('matches the reference assignments', () => {
    expect(omegaAssignment('task-001')).toEqual({
      hash: 'sha256-mod-v1',
      taskId: 'task-001',
      lensIndex: 3,
      lensKey: 'reliability-engineering',
      lensName: 'Reliability Engineering',
      fourthRole: false
    })
    expect(omegaAssignment('task-003')).toMatchObject({ lensIndex: 1, fourthRole: true })
    expect(omegaAssignment('PMID:12345678')).toMatchObject({ lensKey: 'cybernetic-control-systems', fourthRole: false })
    expect(omegaAssignment('t5')).toMatchObject({ lensKey: 'distributed-consensus-architecture', fourthRole: false })
  })

  it('agrees with an independent implementation over many ids, near one grant in five', () => {
    let granted = 0
    const lensCounts = [0, 0, 0, 0, 0]
    for (let i = 0; i < 1000; i++) {
      const id = `task-${i}`
      const a = omegaAssignment(id)
      expect(a.lensIndex).toBe(referenceBucket('omega-lens', id, 5))
      expect(a.fourthRole).toBe(referenceBucket('omega-fourth-role', id, 5) === 0)
      if (a.fourthRole) granted++
      lensCounts[a.lensIndex]! += 1
    }
    // Binomial(1000, 0.2): sd about 12.6.
    expect(Math.abs(granted - 200)).toBeLessThan(51)
    for (const n of lensCounts) expect(Math.abs(n - 200)).toBeLessThan(51)
  })

  it('names the hash so an assignment can be recomputed', () => {
    expect(BUCKET_HASHES['sha256-mod-v1']).toBe(SHA256_MOD_V1)
    expect(() => SHA256_MOD_V1.bucket('p', 'k', 0)).toThrow(RangeError)
  })

  it('lists the lenses of the source, in its order, matching the lens fragments', () => {
    const lenses = builtIn('omega-lenses')
    expect(Object.keys(lenses.parts)).toEqual(OMEGA_LENSES.map((l) => l.key))
    for (const lens of OMEGA_LENSES) expect(lenses.parts[lens.key]?.startsWith(`${lens.name}. View `)).toBe(true)
  })
})
