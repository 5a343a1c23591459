import { describe, expect, it } from 'vitest'
import { WeightedSums, seededRandom, useJavaScriptLoops } from '../../../src/shared/stats'

/** Random compressed rows of (slot, whole-number amount), as the report's kinds of items are laid out. */
function rows(kinds: number, slotCount: number, seed: number): { offsets: Int32Array; slots: Int32Array; amounts: Float64Array } {
  const random = seededRandom(seed)
  const offsets = [0]
  const slots: number[] = []
  const amounts: number[] = []
  for (let k = 0; k < kinds; k++) {
    const length = random.integerBelow(12)
    let slot = random.integerBelow(4)
    for (let j = 0; j < length && slot < slotCount; j++) {
      slots.push(slot)
      // Mostly small counts, now and then a large or negative amount.
      amounts.push(random.integerBelow(10) === 0 ? random.integerBelow(2_000_000) - 1_000_000 : 1 + random.integerBelow(3))
      slot += 1 + random.integerBelow(5)
    }
    offsets.push(slots.length)
  }
  return { offsets: Int32Array.from(offsets), slots: Int32Array.from(slots), amounts: Float64Array.from(amounts) }
}

function sumsOf(javascript: boolean, kinds: number, slotCount: number, seed: number, rounds: number): Float64Array[] {
  const before = useJavaScriptLoops(javascript)
  try {
    const { offsets, slots, amounts } = rows(kinds, slotCount, seed)
    const weighted = new WeightedSums(offsets, slots, amounts, slotCount)
    const random = seededRandom(seed + 1)
    const out: Float64Array[] = []
    for (let r = 0; r < rounds; r++) {
      // Weights as a resample's draws: often 0, sometimes large.
      for (let k = 0; k <= kinds; k++) weighted.weights[k] = random.integerBelow(4) === 0 ? 0 : random.integerBelow(r === 0 ? 3 : 5_000)
      weighted.fill()
      out.push(weighted.sums.slice())
    }
    return out
  } finally {
    useJavaScriptLoops(before)
  }
}

describe('weighted sums of whole-number rows', () => {
  it('are the same to the last bit from the WebAssembly kernel and the JavaScript loop', () => {
    for (const [kinds, slotCount, seed] of [[1, 1, 1], [40, 30, 2], [1_309, 343, 3], [5_000, 900, 4]] as const) {
      const kernel = sumsOf(false, kinds, slotCount, seed, 6)
      const loops = sumsOf(true, kinds, slotCount, seed, 6)
      expect(kernel).toEqual(loops)
      expect(kernel.some((sums) => sums.some((v) => v !== 0))).toBe(true)
    }
  })

  it('add each row times its weight, skipping rows drawn no time, and start from zero at every fill', () => {
    for (const javascript of [false, true]) {
      const before = useJavaScriptLoops(javascript)
      try {
        const weighted = new WeightedSums(Int32Array.from([0, 2, 2, 3]), Int32Array.from([0, 2, 1]), Float64Array.from([1, 5, 7]), 3)
        weighted.weights.set([2, 9, 3, 100])
        weighted.fill()
        expect([...weighted.sums]).toEqual([2, 21, 10])
        weighted.weights.set([0, 0, 1, 0])
        weighted.fill()
        expect([...weighted.sums]).toEqual([0, 7, 0])
      } finally {
        useJavaScriptLoops(before)
      }
    }
  })
})
