import { I32, I64, OP, compiled, double, get, i32, instanceOf, kernelsAreOff, moduleOf, set, signed, tee, word, type KernelFunction } from './wasm'

/**
 * The seeded stream's hot loop (pure-rand 7's xoroshiro128plus with its uniform integer distribution) in
 * WebAssembly: the generator's state is two 64-bit words, which JavaScript can only step as four 32-bit halves, so
 * the same loop compiled to WebAssembly draws about three times as fast, value for value the same stream
 * (bootstrap.test.ts checks it against pure-rand itself and against the JavaScript loop it stands in for).
 *
 *   draw(draws, bound, maxAllowed, binsAt, countsAt): `draws` integers in [0, bound), each adding 1 to
 *     counts[bins[unit]] (or to counts[unit] when binsAt is 0);
 *   fill(draws, bound, maxAllowed, outAt, _): the same integers written in turn to out[0..draws).
 * The state sits in the first 16 bytes of memory (s0 low, s0 high, s1 low, s1 high, as 32-bit words).
 */
export interface DrawKernel {
  memory: WebAssembly.Memory
  draw(draws: number, bound: number, maxAllowed: bigint, binsAt: number, countsAt: number): void
  fill(draws: number, bound: number, maxAllowed: bigint, outAt: number, unused: number): void
}

/** Where the arrays of a call may start: after the generator's state. */
export const DRAW_DATA_START = 16

// Parameters (draws, bound, maxAllowed, arrayAt, countsAt), then the locals.
const DRAWS = 0
const BOUND = 1
const MAX_ALLOWED = 2
const ARRAY_AT = 3
const COUNTS_AT = 4
const S0 = 5
const S1 = 6
const D = 7
const DELTA = 8
const A = 9
const UNIT = 10
const AT = 11
const PARAMS = [I32, I32, I64, I32, I32]
const LOCALS: Array<[number, number]> = [
  [2, I64], // s0, s1
  [1, I32], // d
  [2, I64], // delta, a
  [2, I32] // unit, at
]

/**
 * One step of xoroshiro128+ and the distribution's candidate: delta = (low 32 bits of s0 + s1) + 2^31 as an
 * unsigned integer (pure-rand's `out ^ 0x80000000`); then s1 ^= s0, s0 = rotl(s0, 24) ^ s1 ^ (s1 << 16),
 * s1 = rotl(s1, 37).
 */
const STEP = [
  ...get(S0), ...get(S1), OP.i64Add, OP.i32WrapI64, ...i32(-0x80000000), OP.i32Xor, OP.i64ExtendI32U, ...set(DELTA),
  ...get(S1), ...get(S0), OP.i64Xor, ...set(A),
  ...get(S0), OP.i64Const, ...signed(24), OP.i64Rotl, ...get(A), OP.i64Xor, ...get(A), OP.i64Const, ...signed(16), OP.i64Shl, OP.i64Xor, ...set(S0),
  ...get(A), OP.i64Const, ...signed(37), OP.i64Rotl, ...set(S1)
]

/** counts[bins ? bins[unit] : unit] += 1 (32-bit words). */
const TALLY = [
  ...get(ARRAY_AT), OP.if, I32, ...get(ARRAY_AT), ...get(UNIT), ...i32(2), OP.i32Shl, OP.i32Add, OP.i32Load, ...word(), OP.else, ...get(UNIT), OP.end,
  ...i32(2), OP.i32Shl, ...get(COUNTS_AT), OP.i32Add, ...tee(AT), ...get(AT), OP.i32Load, ...word(), ...i32(1), OP.i32Add, OP.i32Store, ...word()
]

/** out[d] = unit. */
const WRITE = [...get(D), ...i32(2), OP.i32Shl, ...get(ARRAY_AT), OP.i32Add, ...get(UNIT), OP.i32Store, ...word()]

/**
 * Loads the state, draws `draws` integers (a candidate at or above maxAllowed is rejected and redrawn, so every
 * remainder is equally likely), does `each` with every one, and stores the state back.
 */
function drawing(name: string, each: number[]): KernelFunction {
  const code = [
    ...i32(0), OP.i64Load, ...double(0), ...set(S0), ...i32(0), OP.i64Load, ...double(8), ...set(S1),
    OP.block, OP.void, OP.loop, OP.void,
    ...get(D), ...get(DRAWS), OP.i32GeU, OP.brIf, 1,
    OP.loop, OP.void, ...STEP, ...get(DELTA), ...get(MAX_ALLOWED), OP.i64GeU, OP.brIf, 0, OP.end,
    ...get(DELTA), OP.i32WrapI64, ...get(BOUND), OP.i32RemU, ...set(UNIT),
    ...each,
    ...get(D), ...i32(1), OP.i32Add, ...set(D), OP.br, 0,
    OP.end, OP.end,
    ...i32(0), ...get(S0), OP.i64Store, ...double(0), ...i32(0), ...get(S1), OP.i64Store, ...double(8)
  ]
  return { name, params: PARAMS, locals: LOCALS, code }
}

const drawModule = compiled(() => moduleOf([drawing('draw', TALLY), drawing('fill', WRITE)]))

/** The compiled kernel, for a thread that instantiates its own; null where there is none (or kernels are off). */
export function drawKernelModule(): WebAssembly.Module | null {
  return kernelsAreOff() ? null : drawModule()
}

/** A fresh instance of the kernel (its own memory), or null where WebAssembly cannot be compiled here. */
export function drawKernel(): DrawKernel | null {
  return instanceOf<DrawKernel>(drawModule)
}
