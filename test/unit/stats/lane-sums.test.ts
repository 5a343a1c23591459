import { describe, expect, it } from 'vitest'
import { LANES, WeightedSums, laneSumsKernelModule, seededRandom, useJavaScriptLoops } from '../../../src/shared/stats'

// The four-resample sums kernel (the draw thread's) must give each resample the sums the one-resample kernel gives,
// to the last bit, whatever its rows and whichever lanes are drawn no time.

interface Rows { offsets: Int32Array; slots: Int32Array; amounts: Float64Array; slotCount: number }

function randomRows(kinds: number, slotCount: number, seed: number): Rows {
  const random = seededRandom(seed)
  const offsets = [0]
  const slots: number[] = []
  const amounts: number[] = []
  for (let k = 0; k < kinds; k++) {
    let slot = random.integerBelow(4)
    for (let j = random.integerBelow(12); j > 0 && slot < slotCount; j--) {
      slots.push(slot)
      // Mostly small counts, now and then a large or negative amount; a repeated slot now and then.
      amounts.push(random.integerBelow(10) === 0 ? random.integerBelow(2_000_000) - 1_000_000 : 1 + random.integerBelow(3))
      slot += random.integerBelow(5)
    }
    offsets.push(slots.length)
  }
  return { offsets: Int32Array.from(offsets), slots: Int32Array.from(slots), amounts: Float64Array.from(amounts), slotCount }
}

/** The lane kernel on four resamples' weights per row: each lane's sums. */
function laneSums(rows: Rows, weights: Int32Array[]): Float64Array[] {
  const module = laneSumsKernelModule()
  if (module === null) throw new Error('the lane kernel did not compile')
  const kernel = new WebAssembly.Instance(module, {}).exports as unknown as {
    memory: WebAssembly.Memory
    sums(rows: number, weightsAt: number, offsetsAt: number, slotsAt: number, amountsAt: number, sumsAt: number): void
  }
  const count = rows.offsets.length - 1
  const align = (at: number) => Math.ceil(at / 16) * 16
  const offsetsAt = count * 32
  const slotsAt = offsetsAt + rows.offsets.length * 4
  const amountsAt = align(slotsAt + rows.slots.length * 4)
  const sumsAt = align(amountsAt + rows.amounts.length * 8)
  const end = sumsAt + rows.slotCount * 32
  if (end > kernel.memory.buffer.byteLength) kernel.memory.grow(Math.ceil((end - kernel.memory.buffer.byteLength) / 65536))
  const buffer = kernel.memory.buffer
  const lanes = new Float64Array(buffer, 0, count * LANES)
  weights.forEach((w, lane) => { for (let k = 0; k < count; k++) lanes[k * LANES + lane] = w[k] as number })
  new Int32Array(buffer, offsetsAt, rows.offsets.length).set(rows.offsets)
  new Int32Array(buffer, slotsAt, rows.slots.length).set(rows.slots)
  new Float64Array(buffer, amountsAt, rows.amounts.length).set(rows.amounts)
  const sums = new Float64Array(buffer, sumsAt, rows.slotCount * LANES)
  kernel.sums(count, 0, offsetsAt, slotsAt, amountsAt, sumsAt)
  return weights.map((_, lane) => Float64Array.from({ length: rows.slotCount }, (_, q) => sums[q * LANES + lane] as number))
}

function oneAtATime(rows: Rows, weights: Int32Array[], javascript: boolean): Float64Array[] {
  const before = useJavaScriptLoops(javascript)
  try {
    const one = new WeightedSums(rows.offsets, rows.slots, rows.amounts, rows.slotCount)
    return weights.map((w) => {
      one.weights.set(w)
      one.fill()
      return one.sums.slice()
    })
  } finally {
    useJavaScriptLoops(before)
  }
}

describe('the four-resample sums kernel', () => {
  it('gives each lane the sums of the one-resample kernel and of the JavaScript loop, to the last bit', () => {
    expect(LANES).toBe(4)
    for (const [kinds, slotCount, seed] of [[1, 1, 1], [40, 30, 2], [1_309, 343, 3], [5_000, 900, 4]] as const) {
      const rows = randomRows(kinds, slotCount, seed)
      const random = seededRandom(seed + 10)
      // Weights as resamples' draws: often 0, sometimes large; one lane drawn no time at all.
      const weights = Array.from({ length: LANES }, (_, lane) =>
        Int32Array.from({ length: kinds + 1 }, () => (lane === 2 || random.integerBelow(4) === 0 ? 0 : random.integerBelow(5_000))))
      const lanes = laneSums(rows, weights)
      expect(lanes).toEqual(oneAtATime(rows, weights, false))
      expect(lanes).toEqual(oneAtATime(rows, weights, true))
      // The lane drawn no time sums to +0 throughout; the others do not (a kernel that adds nothing would pass above
      // only if the loops did too).
      expect(lanes[2]?.every((v) => Object.is(v, 0))).toBe(true)
      if (kinds > 1) expect(lanes.filter((sums) => sums.some((v) => v !== 0))).toHaveLength(3)
    }
  })

  it('adds each row times its four weights to the sums already there, skipping rows drawn no time in every lane', () => {
    const rows: Rows = { offsets: Int32Array.from([0, 2, 2, 3]), slots: Int32Array.from([0, 2, 1]), amounts: Float64Array.from([1, 5, 7]), slotCount: 3 }
    const weights = [Int32Array.from([2, 9, 3]), Int32Array.from([0, 0, 1]), Int32Array.from([0, 4, 0]), Int32Array.from([1, 1, 1])]
    expect(laneSums(rows, weights).map((s) => [...s])).toEqual([[2, 21, 10], [0, 7, 0], [0, 0, 0], [1, 7, 5]])
  })
})
