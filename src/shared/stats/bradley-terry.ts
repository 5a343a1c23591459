import { clusterBootstrapMany, type BootstrapInterval, type BootstrapOptions } from './bootstrap'
import { indexCategories, positionOf } from './categories'
import { undefinedBecause, type Estimate } from './types'

/** One head-to-head comparison; winner 'tie' when neither was preferred. */
export type Comparison<P extends string> = { first: P; second: P; winner: P | 'tie' }

export type TieHandling = 'half' | 'dropped'

/**
 * Win matrix over declared players: wins[i][j] = times i beat j. A tie adds half a win to each side, or is dropped.
 */
export function winMatrix<P extends string>(
  comparisons: readonly Comparison<P>[],
  players: readonly P[],
  ties: TieHandling = 'half'
): number[][] {
  const positions = indexCategories(players, 'win matrix')
  const wins = players.map(() => players.map(() => 0))
  const add = (winner: number, loser: number, amount: number): void => {
    const row = wins[winner] as number[]
    row[loser] = (row[loser] ?? 0) + amount
  }
  for (const comparison of comparisons) {
    const first = positionOf(positions, comparison.first, 'win matrix')
    const second = positionOf(positions, comparison.second, 'win matrix')
    if (first === second) throw new RangeError(`a comparison of ${comparison.first} with itself`)
    if (comparison.winner === 'tie') {
      if (ties === 'dropped') continue
      add(first, second, 0.5)
      add(second, first, 0.5)
    } else if (comparison.winner === comparison.first) add(first, second, 1)
    else if (comparison.winner === comparison.second) add(second, first, 1)
    else throw new RangeError(`winner ${comparison.winner} is neither ${comparison.first} nor ${comparison.second}`)
  }
  return wins
}

export type BradleyTerryFit<P extends string> = {
  players: P[]
  /** Log-strengths centred at mean 0: P(i beats j) = 1 / (1 + exp(s_j − s_i)). */
  logStrengths: Record<P, Estimate>
  iterations: number
}

export type BradleyTerryOptions = { tolerance?: number; maxIterations?: number }

/**
 * Bradley–Terry strengths by the MM algorithm of Hunter (2004): γ_i ← W_i / Σ_j n_ij / (γ_i + γ_j), renormalised
 * each step. The maximum-likelihood estimate exists only when the "beat" graph is strongly connected (every
 * player beat, through some chain, every other, and was beaten likewise); otherwise the strengths are undefined.
 */
export function bradleyTerry<P extends string>(
  wins: readonly (readonly number[])[],
  players: readonly P[],
  options: BradleyTerryOptions = {}
): BradleyTerryFit<P> {
  const size = players.length
  indexCategories(players, 'Bradley–Terry')
  if (wins.length !== size || wins.some((row) => row.length !== size)) throw new RangeError('Bradley–Terry: the win matrix must be players × players')
  wins.forEach((row, i) => row.forEach((count, j) => {
    if (!(Number.isFinite(count) && count >= 0)) throw new RangeError(`Bradley–Terry: wins[${i}][${j}] must be a non-negative number (${count})`)
  }))
  const allUndefined = (reason: string, iterations = 0): BradleyTerryFit<P> => ({
    players: [...players],
    logStrengths: Object.fromEntries(players.map((player) => [player, undefinedBecause(reason)])) as Record<P, Estimate>,
    iterations
  })
  const flat = new Float64Array(size * size)
  for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) flat[i * size + j] = (wins[i] as readonly number[])[j] as number
  const fit = bradleyTerryLogStrengths(flat, size, options)
  if (fit.values === null) return allUndefined(fit.reason, fit.iterations)
  const values = fit.values
  return {
    players: [...players],
    logStrengths: Object.fromEntries(players.map((player, i) => [player, { value: values[i] as number }])) as Record<P, Estimate>,
    iterations: fit.iterations
  }
}

export type LogStrengths = { values: Float64Array; iterations: number } | { values: null; reason: string; iterations: number }

/**
 * bradleyTerry on a win matrix laid out row by row (wins[i × size + j]: times i beat j), returning the centred
 * log-strengths in player order: what a bootstrap refits on each resample, without a matrix of arrays or a record
 * per fit. The matrix is read, not kept.
 */
export function bradleyTerryLogStrengths(wins: Float64Array, size: number, options: BradleyTerryOptions = {}): LogStrengths {
  if (wins.length !== size * size) throw new RangeError('Bradley–Terry: the win matrix must be players × players')
  for (let p = 0; p < wins.length; p++) {
    const count = wins[p] as number
    if (!(Number.isFinite(count) && count >= 0)) throw new RangeError(`Bradley–Terry: wins[${Math.floor(p / size)}][${p % size}] must be a non-negative number (${count})`)
  }
  const tolerance = options.tolerance ?? 1e-10
  const maxIterations = options.maxIterations ?? 100_000
  if (size < 2) return { values: null, reason: 'fewer than 2 players', iterations: 0 }
  if (!stronglyConnected(wins, size)) {
    return { values: null, reason: 'the maximum-likelihood strengths do not exist: some player never won, or never lost, against a connected group of the others', iterations: 0 }
  }

  // Refitted on every bootstrap resample: the loop works in place on typed arrays kept between fits, with the same
  // operations in the same order as the textbook update, so every figure is the same to the last bit.
  const { totalWins, opponentStart, opponents, games, gamma } = scratchFor(size)
  for (let i = 0; i < size; i++) {
    let sum = 0
    for (let j = 0; j < size; j++) sum += wins[i * size + j] as number
    totalWins[i] = sum
  }
  // Only pairs that met enter the update: a pair with no games adds +0 to a sum of non-negative terms, which leaves
  // it the same to the last bit, and pairwise designs (each AI system against human proposals) leave most pairs empty.
  let met = 0
  opponentStart[0] = 0
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < size; j++) {
      const n = (wins[i * size + j] as number) + (wins[j * size + i] as number)
      if (j === i || n === 0) continue
      opponents[met] = j
      games[met++] = n
    }
    opponentStart[i + 1] = met
  }
  let logGamma = scratch.logA.fill(0, 0, size)
  let centred = scratch.logB
  for (let iteration = 1; iteration <= maxIterations; iteration++) {
    for (let i = 0; i < size; i++) gamma[i] = Math.exp(logGamma[i] as number)
    let total = 0
    for (let i = 0; i < size; i++) {
      const gammaI = gamma[i] as number
      let denominator = 0
      const last = opponentStart[i + 1] as number
      for (let k = opponentStart[i] as number; k < last; k++) denominator += (games[k] as number) / (gammaI + (gamma[opponents[k] as number] as number))
      const updated = Math.log((totalWins[i] as number) / denominator)
      centred[i] = updated
      total += updated
    }
    const mean = total / size
    let change = 0
    for (let i = 0; i < size; i++) {
      const value = (centred[i] as number) - mean
      centred[i] = value
      change = Math.max(change, Math.abs(value - (logGamma[i] as number)))
    }
    const previous = logGamma
    logGamma = centred
    centred = previous
    if (change < tolerance) return { values: logGamma.slice(0, size), iterations: iteration }
  }
  return { values: null, reason: `did not converge within ${maxIterations} iterations`, iterations: maxIterations }
}

/** Buffers every fit works in (a bootstrap refits thousands of times), grown to the most players fitted so far. */
let scratch = newScratch(0)

function newScratch(size: number) {
  return {
    size,
    totalWins: new Float64Array(size),
    opponentStart: new Int32Array(size + 1),
    opponents: new Int32Array(size * size),
    games: new Float64Array(size * size),
    gamma: new Float64Array(size),
    logA: new Float64Array(size),
    logB: new Float64Array(size),
    seen: new Uint8Array(size),
    stack: new Int32Array(size)
  }
}

function scratchFor(size: number): typeof scratch {
  if (size > scratch.size) scratch = newScratch(size)
  return scratch
}

/** Whether every player reaches every other along "beat" edges (i → j when i beat j). */
function stronglyConnected(wins: Float64Array, size: number): boolean {
  return reachesAll(wins, size, false) && reachesAll(wins, size, true)
}

/** Whether player 0 reaches every player along "beat" edges (against them where `reversed`). */
function reachesAll(wins: Float64Array, size: number, reversed: boolean): boolean {
  const { seen, stack } = scratchFor(size)
  seen.fill(0, 0, size)
  seen[0] = 1
  let reached = 1
  let top = 0
  stack[top++] = 0
  while (top > 0) {
    const from = stack[--top] as number
    for (let to = 0; to < size; to++) {
      if (seen[to] === 0 && (wins[reversed ? to * size + from : from * size + to] as number) > 0) {
        seen[to] = 1
        reached++
        stack[top++] = to
      }
    }
  }
  return reached === size
}

/**
 * Bradley–Terry log-strengths with cluster-bootstrap percentile intervals: units (comparisons, or items carrying
 * several comparisons) are resampled and the model refitted; resamples whose fit is undefined are counted.
 */
export function bradleyTerryBootstrap<U, P extends string>(
  units: readonly U[],
  comparisonsOf: (unit: U) => readonly Comparison<P>[],
  players: readonly P[],
  options: BootstrapOptions & BradleyTerryOptions & { ties?: TieHandling } = {}
): Record<P, BootstrapInterval> {
  const fit = (resample: readonly U[]): Record<P, Estimate> =>
    bradleyTerry(winMatrix(resample.flatMap(comparisonsOf), players, options.ties), players, options).logStrengths
  return clusterBootstrapMany(units, fit, options)
}
