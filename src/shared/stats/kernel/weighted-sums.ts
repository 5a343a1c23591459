import { F64, I32, OP, compiled, double, ensureMemory, get, i32, instanceOf, kernelsAreOff, moduleOf, set, tee, word } from './wasm'

/**
 * Sums of whole-number rows weighted by how often each row was drawn: sums[slot] += weight[k] × amount over the
 * entries of every row k with a non-zero weight, rows in order and each row's entries in order. A bootstrap
 * resample of a report fills all its counts this way (see report/bootstrap-plan.ts), so this loop runs once per
 * resample over every kind of item; in WebAssembly it runs about three times as fast as in JavaScript. The same
 * multiplications and additions in the same order give the same sums to the last bit (IEEE doubles in both; a test
 * compares the two).
 *
 *   sums(rows, weightsAt, offsetsAt, slotsAt, amountsAt, sumsAt): rows' entries are slots[offsets[k]..offsets[k+1])
 *     with their amounts; the sums are added to, not cleared.
 */
interface SumsKernel {
  memory: WebAssembly.Memory
  sums(rows: number, weightsAt: number, offsetsAt: number, slotsAt: number, amountsAt: number, sumsAt: number): void
}

const ROWS = 0
const WEIGHTS_AT = 1
const OFFSETS_AT = 2
const SLOTS_AT = 3
const AMOUNTS_AT = 4
const SUMS_AT = 5
const K = 6
const P = 7
const END = 8
const WEIGHT = 9
const AT = 10

/** base + index × 2^shift */
const element = (base: number, index: number, shift: number): number[] => [...get(base), ...get(index), ...i32(shift), OP.i32Shl, OP.i32Add]

const SUMS = [
  OP.block, OP.void, OP.loop, OP.void,
  ...get(K), ...get(ROWS), OP.i32GeU, OP.brIf, 1,
  ...element(WEIGHTS_AT, K, 2), OP.i32Load, ...word(), OP.f64ConvertI32S, ...tee(WEIGHT),
  OP.f64Const, 0, 0, 0, 0, 0, 0, 0, 0, OP.f64Ne,
  OP.if, OP.void,
  ...element(OFFSETS_AT, K, 2), OP.i32Load, ...word(0), ...set(P),
  ...element(OFFSETS_AT, K, 2), OP.i32Load, ...word(4), ...set(END),
  OP.block, OP.void, OP.loop, OP.void,
  ...get(P), ...get(END), OP.i32GeS, OP.brIf, 1,
  // at = sumsAt + slots[p] × 8; sums[at] = sums[at] + weight × amounts[p]
  ...get(SUMS_AT), ...element(SLOTS_AT, P, 2), OP.i32Load, ...word(), ...i32(3), OP.i32Shl, OP.i32Add, ...tee(AT),
  ...get(AT), OP.f64Load, ...double(), ...get(WEIGHT), ...element(AMOUNTS_AT, P, 3), OP.f64Load, ...double(), OP.f64Mul, OP.f64Add,
  OP.f64Store, ...double(),
  ...get(P), ...i32(1), OP.i32Add, ...set(P), OP.br, 0,
  OP.end, OP.end,
  OP.end,
  ...get(K), ...i32(1), OP.i32Add, ...set(K), OP.br, 0,
  OP.end, OP.end
]

const sumsModule = compiled(() =>
  moduleOf([{ name: 'sums', params: [I32, I32, I32, I32, I32, I32], locals: [[3, I32], [1, F64], [1, I32]], code: SUMS }])
)

/** The compiled sums kernel, for another thread to instantiate; null where there is none (or kernels are off). */
export function sumsKernelModule(): WebAssembly.Module | null {
  return kernelsAreOff() ? null : sumsModule()
}

/** Rows of (slot, whole-number amount) as WeightedSums holds them: what another thread needs to sum them alike. */
export interface SumsRows {
  offsets: Int32Array
  slots: Int32Array
  amounts: Float64Array
  slotCount: number
}

/**
 * Fixed rows of (slot, whole-number amount) and their sums under changing weights: set `weights` (one per row, and
 * one more entry after the rows that no sum reads), call `fill()`, read `sums`. The arrays live in the kernel's
 * memory where there is one, so a resample copies nothing.
 */
export class WeightedSums {
  readonly weights: Int32Array
  readonly sums: Float64Array
  /** The rows as given. */
  readonly rows: SumsRows
  private readonly fillRows: () => void

  constructor(offsets: Int32Array, slots: Int32Array, amounts: Float64Array, slotCount: number) {
    this.rows = { offsets, slots, amounts, slotCount }
    const rows = offsets.length - 1
    const kernel = instanceOf<SumsKernel>(sumsModule)
    if (kernel === null) {
      this.weights = new Int32Array(rows + 1)
      this.sums = new Float64Array(slotCount)
      const { weights, sums } = this
      this.fillRows = () => {
        for (let k = 0; k < rows; k++) {
          const weight = weights[k] as number
          if (weight === 0) continue
          const end = offsets[k + 1] as number
          for (let p = offsets[k] as number; p < end; p++) {
            const slot = slots[p] as number
            sums[slot] = (sums[slot] as number) + weight * (amounts[p] as number)
          }
        }
      }
      return
    }
    // Laid out once: weights, offsets and slots as 32-bit words, then (aligned to 8) amounts and sums as doubles.
    const weightsAt = 0
    const offsetsAt = weightsAt + (rows + 1) * 4
    const slotsAt = offsetsAt + offsets.length * 4
    const amountsAt = Math.ceil((slotsAt + slots.length * 4) / 8) * 8
    const sumsAt = amountsAt + amounts.length * 8
    ensureMemory(kernel.memory, sumsAt + slotCount * 8)
    const buffer = kernel.memory.buffer
    this.weights = new Int32Array(buffer, weightsAt, rows + 1)
    new Int32Array(buffer, offsetsAt, offsets.length).set(offsets)
    new Int32Array(buffer, slotsAt, slots.length).set(slots)
    new Float64Array(buffer, amountsAt, amounts.length).set(amounts)
    this.sums = new Float64Array(buffer, sumsAt, slotCount)
    this.fillRows = () => kernel.sums(rows, weightsAt, offsetsAt, slotsAt, amountsAt, sumsAt)
  }

  /** sums = Σ over rows of weight × the row's amounts. */
  fill(): void {
    this.sums.fill(0)
    this.fillRows()
  }
}
