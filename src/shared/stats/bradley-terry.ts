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
  const tolerance = options.tolerance ?? 1e-10
  const maxIterations = options.maxIterations ?? 100_000
  const allUndefined = (reason: string, iterations = 0): BradleyTerryFit<P> => ({
    players: [...players],
    logStrengths: Object.fromEntries(players.map((player) => [player, undefinedBecause(reason)])) as Record<P, Estimate>,
    iterations
  })
  if (size < 2) return allUndefined('fewer than 2 players')
  if (!stronglyConnected(wins)) {
    return allUndefined('the maximum-likelihood strengths do not exist: some player never won, or never lost, against a connected group of the others')
  }

  // Refitted on every bootstrap resample: the loop works in place on typed arrays, with the same operations in the
  // same order as the textbook update, so every figure is the same to the last bit.
  const totalWins = wins.map((row) => row.reduce((sum, count) => sum + count, 0))
  const games = new Float64Array(size * size)
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < size; j++) games[i * size + j] = (wins[i]?.[j] ?? 0) + (wins[j]?.[i] ?? 0)
  }
  let logGamma = new Float64Array(size)
  let centred = new Float64Array(size)
  const gamma = new Float64Array(size)
  for (let iteration = 1; iteration <= maxIterations; iteration++) {
    for (let i = 0; i < size; i++) gamma[i] = Math.exp(logGamma[i] as number)
    let total = 0
    for (let i = 0; i < size; i++) {
      const gammaI = gamma[i] as number
      let denominator = 0
      for (let j = 0; j < size; j++) {
        if (j !== i) denominator += (games[i * size + j] as number) / (gammaI + (gamma[j] as number))
      }
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
    if (change < tolerance) {
      return {
        players: [...players],
        logStrengths: Object.fromEntries(players.map((player, i) => [player, { value: logGamma[i] as number }])) as Record<P, Estimate>,
        iterations: iteration
      }
    }
  }
  return allUndefined(`did not converge within ${maxIterations} iterations`, maxIterations)
}

/** Whether every player reaches every other along "beat" edges (i → j when i beat j). */
function stronglyConnected(wins: readonly (readonly number[])[]): boolean {
  const size = wins.length
  const reachesAll = (edge: (from: number, to: number) => boolean): boolean => {
    const seen = new Set<number>([0])
    const stack = [0]
    while (stack.length > 0) {
      const from = stack.pop() as number
      for (let to = 0; to < size; to++) {
        if (!seen.has(to) && edge(from, to)) {
          seen.add(to)
          stack.push(to)
        }
      }
    }
    return seen.size === size
  }
  return reachesAll((from, to) => (wins[from]?.[to] ?? 0) > 0) && reachesAll((from, to) => (wins[to]?.[from] ?? 0) > 0)
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
