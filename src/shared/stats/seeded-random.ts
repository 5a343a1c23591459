import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand'
import { DRAW_DATA_START, drawKernel, drawKernelModule, type DrawKernel } from './kernel/draws'
import { ensureMemory, kernelsAreOff } from './kernel/wasm'

/** Names the generator in results so a reported interval can be reproduced. */
export const RANDOM_GENERATOR = 'pure-rand@7 xoroshiro128plus'

export type SeededRandom = {
  /** A uniformly distributed integer in [0, bound). */
  integerBelow(bound: number): number
  /**
   * Draws `draws` integers in [0, counts.length) and adds 1 to `counts` at each: the same stream, value for value, as
   * that many `integerBelow(counts.length)` calls, without a call per draw (a bootstrap resample is one such fill).
   */
  addDraws(counts: Int32Array, draws: number): void
  /**
   * The same draws as `addDraws` over `binOf.length` units, each added to its unit's bin instead (`counts[binOf[u]]`):
   * a resample's totals per group of units without a pass over the units.
   */
  addDrawsToBins(counts: Int32Array, draws: number, binOf: Int32Array): void
  /**
   * `addDrawsToBins` for bins fixed once (read now; later changes to `binOf` are not seen): a resample's draws
   * totalled by kind, each call continuing this stream.
   */
  binned(binOf: Int32Array): (counts: Int32Array, draws: number) => void
  /**
   * Fills `out` with `out.length` integers in [0, bound): the same stream, value for value and in order, as that many
   * `integerBelow(bound)` calls, without a call per draw (a cluster bootstrap's drawn unit indices).
   */
  fillBelow(out: Int32Array, bound: number): void
}

/** The state of pure-rand's xoroshiro128plus (four 32-bit words), read and written back around a fast loop. */
type XoroState = { s01: number; s00: number; s11: number; s10: number }

/** The draw loops' bound: draws are 32-bit, so a bound is an integer in [1, 2^32). */
function assertDrawBound(bound: number): void {
  if (!(Number.isInteger(bound) && bound >= 1 && bound <= 0xffffffff)) throw new RangeError(`bound must be a positive integer below 2^32 (${bound})`)
}

/** A seeded stream of random integers; the same seed always yields the same stream. */
export function seededRandom(seed: number): SeededRandom {
  assertSeed(seed)
  const generator = xoroshiro128plus(seed)
  const state = generator as unknown as XoroState
  return {
    integerBelow(bound) {
      if (!(Number.isInteger(bound) && bound >= 1)) throw new RangeError(`bound must be a positive integer (${bound})`)
      return unsafeUniformIntDistribution(0, bound - 1, generator)
    },
    addDraws(counts, draws) {
      const bound = counts.length
      assertDrawBound(bound)
      if (!kernelDraw(state, bound, draws, counts, null)) drawInto(state, bound, draws, counts, null)
    },
    addDrawsToBins(counts, draws, binOf) {
      const bound = binOf.length
      assertDrawBound(bound)
      if (!kernelDraw(state, bound, draws, counts, binOf)) drawInto(state, bound, draws, counts, binOf)
    },
    binned(binOf) {
      const bound = binOf.length
      assertDrawBound(bound)
      return binnedDraws(state, binOf)
    },
    fillBelow(out, bound) {
      assertDrawBound(bound)
      if (!kernelFill(state, bound, out)) fillInto(state, bound, out)
    }
  }
}

/**
 * What another thread needs to draw this seed's stream from its start through the draw kernel, value for value: the
 * compiled kernel, the generator's first state in the kernel's layout (memory words 0..3), and the rejection
 * threshold of draws below `bound`. Null where there is no kernel.
 */
export function kernelStreamStart(seed: number, bound: number): { module: WebAssembly.Module; state: Int32Array; maxAllowed: bigint } | null {
  assertSeed(seed)
  assertDrawBound(bound)
  const module = drawKernelModule()
  if (module === null) return null
  const state = new Int32Array(4)
  writeState(state, xoroshiro128plus(seed) as unknown as XoroState)
  return { module, state, maxAllowed: maxAllowedOf(bound) }
}

/** This thread's kernel for one-off calls, made on first use; null where there is none (or kernels are off). */
let shared: DrawKernel | null | undefined
function sharedKernel(): DrawKernel | null {
  if (kernelsAreOff()) return null
  if (shared === undefined) shared = drawKernel()
  return shared
}

/** pure-rand's rejection threshold: the largest multiple of the bound at or below 2^32. */
function maxAllowedOf(bound: number): bigint {
  return BigInt(bound > 2 ? Math.floor(0x100000000 / bound) * bound : 0x100000000)
}

function writeState(words: Int32Array, state: XoroState): void {
  words[0] = state.s00
  words[1] = state.s01
  words[2] = state.s10
  words[3] = state.s11
}

function readState(words: Int32Array, state: XoroState): void {
  state.s00 = words[0] as number
  state.s01 = words[1] as number
  state.s10 = words[2] as number
  state.s11 = words[3] as number
}

/**
 * drawInto through a kernel whose memory already holds the bins (or none) from `countsAt` on: the counts are copied
 * in and back out (a few microseconds beside the draws).
 */
function kernelTally(k: DrawKernel, state: XoroState, bound: number, draws: number, counts: Int32Array, binsAt: number, countsAt: number): void {
  ensureMemory(k.memory, countsAt + counts.length * 4)
  const words = new Int32Array(k.memory.buffer)
  writeState(words, state)
  words.set(counts, countsAt / 4)
  k.draw(draws, bound, maxAllowedOf(bound), binsAt, countsAt)
  counts.set(words.subarray(countsAt / 4, countsAt / 4 + counts.length))
  readState(words, state)
}

/** drawInto through the shared kernel, the bins (if any) copied in first; false when there is no kernel. */
function kernelDraw(state: XoroState, bound: number, draws: number, counts: Int32Array, binOf: Int32Array | null): boolean {
  const k = sharedKernel()
  if (k === null) return false
  if (binOf === null) {
    kernelTally(k, state, bound, draws, counts, 0, DRAW_DATA_START)
    return true
  }
  const countsAt = DRAW_DATA_START + binOf.length * 4
  ensureMemory(k.memory, countsAt)
  new Int32Array(k.memory.buffer).set(binOf, DRAW_DATA_START / 4)
  kernelTally(k, state, bound, draws, counts, DRAW_DATA_START, countsAt)
  return true
}

/** fillInto through the shared kernel; false when there is none. */
function kernelFill(state: XoroState, bound: number, out: Int32Array): boolean {
  const k = sharedKernel()
  if (k === null) return false
  const outAt = DRAW_DATA_START
  ensureMemory(k.memory, outAt + out.length * 4)
  const words = new Int32Array(k.memory.buffer)
  writeState(words, state)
  k.fill(out.length, bound, maxAllowedOf(bound), outAt, 0)
  out.set(words.subarray(outAt / 4, outAt / 4 + out.length))
  readState(words, state)
  return true
}

/** addDrawsToBins for fixed bins: with a kernel of its own, the bins are copied into it once. */
function binnedDraws(state: XoroState, binOf: Int32Array): (counts: Int32Array, draws: number) => void {
  const bound = binOf.length
  const k = drawKernel()
  if (k === null) {
    const bins = binOf.slice()
    return (counts, draws) => drawInto(state, bound, draws, counts, bins)
  }
  const binsAt = DRAW_DATA_START
  const countsAt = binsAt + bound * 4
  ensureMemory(k.memory, countsAt)
  new Int32Array(k.memory.buffer).set(binOf, binsAt / 4)
  return (counts, draws) => kernelTally(k, state, bound, draws, counts, binsAt, countsAt)
}

/**
 * pure-rand 7: XoroShiro128Plus.unsafeNext and unsafeUniformIntDistributionInternal, inlined on local state; each
 * drawn integer in [0, bound) adds 1 to its count, or to its bin's count when bins are given.
 */
function drawInto(state: XoroState, bound: number, draws: number, counts: Int32Array, binOf: Int32Array | null): void {
  const maxAllowed = bound > 2 ? Math.floor(0x100000000 / bound) * bound : 0x100000000
  // The remainder by a multiplication with the reciprocal: the floored quotient is off by at most one (both operands
  // are below 2^32, far inside a double's precision), and one correction step makes the remainder exact; an
  // integer division per draw costs about twice as much.
  const reciprocal = 1 / bound
  let { s01, s00, s11, s10 } = state
  for (let d = 0; d < draws; d++) {
    let delta: number
    do {
      const out = (s00 + s10) | 0
      const a0 = s10 ^ s00
      const a1 = s11 ^ s01
      const t00 = s00
      const t01 = s01
      s00 = (t00 << 24) ^ (t01 >>> 8) ^ a0 ^ (a0 << 16)
      s01 = (t01 << 24) ^ (t00 >>> 8) ^ a1 ^ ((a1 << 16) | (a0 >>> 16))
      s10 = (a1 << 5) ^ (a0 >>> 27)
      s11 = (a0 << 5) ^ (a1 >>> 27)
      // out + 2^31 as an unsigned 32-bit integer (flipping the sign bit adds 2^31 without leaving 32 bits), so the
      // remainder below is an integer one rather than a floating-point call.
      delta = (out ^ 0x80000000) >>> 0
    } while (delta >= maxAllowed)
    let unit = delta - Math.floor(delta * reciprocal) * bound
    if (unit < 0) unit += bound
    else if (unit >= bound) unit -= bound
    const at = binOf === null ? unit : (binOf[unit] as number)
    counts[at] = (counts[at] as number) + 1
  }
  state.s01 = s01
  state.s00 = s00
  state.s11 = s11
  state.s10 = s10
}

/** drawInto's loop, each drawn integer written in turn to `out` (kept apart so the tallying loop stays as it is). */
function fillInto(state: XoroState, bound: number, out: Int32Array): void {
  const maxAllowed = bound > 2 ? Math.floor(0x100000000 / bound) * bound : 0x100000000
  const reciprocal = 1 / bound
  let { s01, s00, s11, s10 } = state
  const draws = out.length
  for (let d = 0; d < draws; d++) {
    let delta: number
    do {
      const value = (s00 + s10) | 0
      const a0 = s10 ^ s00
      const a1 = s11 ^ s01
      const t00 = s00
      const t01 = s01
      s00 = (t00 << 24) ^ (t01 >>> 8) ^ a0 ^ (a0 << 16)
      s01 = (t01 << 24) ^ (t00 >>> 8) ^ a1 ^ ((a1 << 16) | (a0 >>> 16))
      s10 = (a1 << 5) ^ (a0 >>> 27)
      s11 = (a0 << 5) ^ (a1 >>> 27)
      delta = (value ^ 0x80000000) >>> 0
    } while (delta >= maxAllowed)
    let unit = delta - Math.floor(delta * reciprocal) * bound
    if (unit < 0) unit += bound
    else if (unit >= bound) unit -= bound
    out[d] = unit
  }
  state.s01 = s01
  state.s00 = s00
  state.s11 = s11
  state.s10 = s10
}

/** The generator reads a seed as 32 bits, so larger or negative seeds would silently collide with others. */
export function assertSeed(seed: number): void {
  if (!(Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff)) {
    throw new RangeError(`seed must be an integer in [0, 2^32 − 1] (${seed})`)
  }
}
