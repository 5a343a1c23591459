/**
 * What the resampling kernels are assembled from: the WebAssembly instructions they use, the format's integers and
 * sections, and compiling with a way out. The kernels are a handful of loops, assembled here from their instructions
 * rather than shipped as binaries, so what they do can be read beside the JavaScript they stand in for.
 */

export const I32 = 0x7f
export const I64 = 0x7e
export const F64 = 0x7c
export const V128 = 0x7b

/** The instructions the kernels use (opcode bytes of the WebAssembly core specification). */
export const OP = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  void: 0x40,
  br: 0x0c,
  brIf: 0x0d,
  get: 0x20,
  set: 0x21,
  tee: 0x22,
  i32Load: 0x28,
  i64Load: 0x29,
  f64Load: 0x2b,
  i32Store: 0x36,
  i64Store: 0x37,
  f64Store: 0x39,
  i32Const: 0x41,
  i64Const: 0x42,
  f64Const: 0x44,
  i32GeS: 0x4e,
  i32GeU: 0x4f,
  i64GeU: 0x5a,
  f64Ne: 0x62,
  i32Add: 0x6a,
  i32RemU: 0x70,
  i32Xor: 0x73,
  i32Shl: 0x74,
  i64Add: 0x7c,
  i64Xor: 0x85,
  i64Shl: 0x86,
  i64Rotl: 0x89,
  f64Add: 0xa0,
  f64Mul: 0xa2,
  i32WrapI64: 0xa7,
  i64ExtendI32U: 0xad,
  f64ConvertI32S: 0xb7,
  /** The prefix of the 128-bit vector instructions, each followed by its number (see SIMD). */
  simd: 0xfd
} as const

/** Vector instructions (after OP.simd), their numbers as unsigned LEB128. */
export const SIMD = {
  v128Load: [0x00],
  v128Store: [0x0b],
  f64x2Splat: [0x14],
  v128Or: [0x50],
  v128AnyTrue: [0x53],
  f64x2Add: [0xf0, 0x01],
  f64x2Mul: [0xf2, 0x01]
} as const

/** Unsigned LEB128, the format's counts and indices. */
export function unsigned(n: number): number[] {
  const out: number[] = []
  do {
    let byte = n & 0x7f
    n >>>= 7
    if (n !== 0) byte |= 0x80
    out.push(byte)
  } while (n !== 0)
  return out
}

/** Signed LEB128, the format's integer constants. */
export function signed(n: number): number[] {
  const out: number[] = []
  for (;;) {
    const byte = n & 0x7f
    n >>= 7
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) return [...out, byte]
    out.push(byte | 0x80)
  }
}

/** Reading, writing, and writing-and-keeping a parameter or local by its index. */
export const get = (index: number): number[] => [OP.get, index]
export const set = (index: number): number[] => [OP.set, index]
export const tee = (index: number): number[] => [OP.tee, index]

/** A 32-bit integer constant. */
export const i32 = (n: number): number[] => [OP.i32Const, ...signed(n)]

/** A 32-bit load or store's immediates: alignment 4 and a byte offset. */
export const word = (offset = 0): number[] => [2, ...unsigned(offset)]

/** A 64-bit load or store's immediates: alignment 8 and a byte offset. */
export const double = (offset = 0): number[] => [3, ...unsigned(offset)]

/** A 128-bit load or store's immediates: alignment 16 and a byte offset. */
export const lanes = (offset = 0): number[] => [4, ...unsigned(offset)]

/** One vector instruction. */
export const simd = (op: readonly number[]): number[] => [OP.simd, ...op]

const vector = (entries: number[][]): number[] => [...unsigned(entries.length), ...entries.flat()]
const section = (id: number, bytes: number[]): number[] => [id, ...unsigned(bytes.length), ...bytes]
const name = (text: string): number[] => [...unsigned(text.length), ...[...text].map((c) => c.charCodeAt(0))]

export interface KernelFunction {
  name: string
  params: number[]
  /** Runs of locals after the parameters: [count, type]. */
  locals: Array<[number, number]>
  code: number[]
}

/** A module of functions without results and one exported memory (`memory`, one page to start). */
export function moduleOf(functions: readonly KernelFunction[]): Uint8Array<ArrayBuffer> {
  const types = functions.map((f) => [0x60, ...unsigned(f.params.length), ...f.params, 0])
  const bodies = functions.map((f) => {
    const body = [...vector(f.locals.map(([count, type]) => [...unsigned(count), type])), ...f.code, OP.end]
    return [...unsigned(body.length), ...body]
  })
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, vector(types)),
    ...section(3, vector(functions.map((_, i) => unsigned(i)))),
    ...section(5, vector([[0, 1]])),
    ...section(7, vector([...functions.map((f, i) => [...name(f.name), 0, ...unsigned(i)]), [...name('memory'), 2, 0]])),
    ...section(10, vector(bodies))
  ])
}

/** Compiles a module once; null where WebAssembly cannot be compiled here (a page whose content policy forbids it). */
export function compiled(bytes: () => Uint8Array<ArrayBuffer>): () => WebAssembly.Module | null {
  let module: WebAssembly.Module | null | undefined
  return () => {
    if (module === undefined) {
      try {
        module = new WebAssembly.Module(bytes())
      } catch {
        module = null
      }
    }
    return module
  }
}

/** Whether the JavaScript loops are used instead of the kernels (tests compare the two). */
let kernelsOff = false

/** Runs the JavaScript loops (`true`) or the kernels where they compile (`false`); returns the previous setting. */
export function useJavaScriptLoops(on: boolean): boolean {
  const before = kernelsOff
  kernelsOff = on
  return before
}

/** Whether the kernels are turned off (see useJavaScriptLoops). */
export function kernelsAreOff(): boolean {
  return kernelsOff
}

/** A fresh instance (its own memory) of a compiled module, or null where there is none or kernels are turned off. */
export function instanceOf<T>(module: () => WebAssembly.Module | null): (T & { memory: WebAssembly.Memory }) | null {
  if (kernelsOff) return null
  const m = module()
  return m === null ? null : (new WebAssembly.Instance(m, {}).exports as unknown as T & { memory: WebAssembly.Memory })
}

/** Grows a kernel's memory to hold at least `bytes` bytes (views made before a growth no longer see the memory). */
export function ensureMemory(memory: WebAssembly.Memory, bytes: number): void {
  const have = memory.buffer.byteLength
  if (bytes > have) memory.grow(Math.ceil((bytes - have) / 65536))
}
