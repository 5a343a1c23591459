import { I32, OP, SIMD, V128, compiled, double, get, i32, kernelsAreOff, lanes, moduleOf, set, simd, tee, word } from './wasm'

/**
 * WeightedSums for four resamples at once: each row's entries are read once and added, times the row's four
 * weights, to four sums per slot, two resamples to a 128-bit vector. Lane by lane these are the multiplications and
 * additions of the one-resample kernel in the same order, and a lane whose weight is 0 adds a zero, which changes no
 * sum, so every resample's sums are the same to the last bit (a test compares them). Where vector instructions do
 * not compile, the module is null and resamples are summed one at a time.
 *
 *   sums(rows, weightsAt, offsetsAt, slotsAt, amountsAt, sumsAt): weights are doubles, four per row (weights[k × 4 +
 *     lane]); sums are doubles, four per slot (sums[slot × 4 + lane]), added to, not cleared; 16-byte aligned.
 */
export const LANES = 4

const ROWS = 0
const WEIGHTS_AT = 1
const OFFSETS_AT = 2
const SLOTS_AT = 3
const AMOUNTS_AT = 4
const SUMS_AT = 5
const K = 6
const P = 7
const END = 8
const AT = 9
const LOW = 10
const HIGH = 11
const AMOUNT = 12

/** base + index × 2^shift */
const element = (base: number, index: number, shift: number): number[] => [...get(base), ...get(index), ...i32(shift), OP.i32Shl, OP.i32Add]

/** sums at `offset` from AT += weights × amount (one vector of two lanes). */
const addLanes = (weights: number, offset: number): number[] => [
  ...get(AT), ...get(AT), ...simd(SIMD.v128Load), ...lanes(offset), ...get(weights), ...get(AMOUNT), ...simd(SIMD.f64x2Mul), ...simd(SIMD.f64x2Add),
  ...simd(SIMD.v128Store), ...lanes(offset)
]

const SUMS = [
  OP.block, OP.void, OP.loop, OP.void,
  ...get(K), ...get(ROWS), OP.i32GeU, OP.brIf, 1,
  ...element(WEIGHTS_AT, K, 5), ...tee(AT), ...simd(SIMD.v128Load), ...lanes(0), ...set(LOW),
  ...get(AT), ...simd(SIMD.v128Load), ...lanes(16), ...set(HIGH),
  ...get(LOW), ...get(HIGH), ...simd(SIMD.v128Or), ...simd(SIMD.v128AnyTrue),
  OP.if, OP.void,
  ...element(OFFSETS_AT, K, 2), OP.i32Load, ...word(0), ...set(P),
  ...element(OFFSETS_AT, K, 2), OP.i32Load, ...word(4), ...set(END),
  OP.block, OP.void, OP.loop, OP.void,
  ...get(P), ...get(END), OP.i32GeS, OP.brIf, 1,
  ...element(AMOUNTS_AT, P, 3), OP.f64Load, ...double(), ...simd(SIMD.f64x2Splat), ...set(AMOUNT),
  // at = sumsAt + slots[p] × 32: the slot's four sums
  ...get(SUMS_AT), ...element(SLOTS_AT, P, 2), OP.i32Load, ...word(), ...i32(5), OP.i32Shl, OP.i32Add, ...set(AT),
  ...addLanes(LOW, 0),
  ...addLanes(HIGH, 16),
  ...get(P), ...i32(1), OP.i32Add, ...set(P), OP.br, 0,
  OP.end, OP.end,
  OP.end,
  ...get(K), ...i32(1), OP.i32Add, ...set(K), OP.br, 0,
  OP.end, OP.end
]

const laneSumsModule = compiled(() =>
  moduleOf([{ name: 'sums', params: [I32, I32, I32, I32, I32, I32], locals: [[4, I32], [3, V128]], code: SUMS }])
)

/** The compiled four-resample sums kernel, for another thread to instantiate; null where there is none. */
export function laneSumsKernelModule(): WebAssembly.Module | null {
  return kernelsAreOff() ? null : laneSumsModule()
}
