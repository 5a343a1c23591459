import { describe, expect, it } from 'vitest'
import {
  bradleyTerry,
  bradleyTerryBootstrap,
  bradleyTerryLogStrengths,
  seededRandom,
  winMatrix,
  winRateAgainstReferences,
  type Comparison
} from '../../../src/shared/stats'

const players = ['p', 'q', 'r', 's'] as const
type Player = (typeof players)[number]
// wins[i][j]: times players[i] beat players[j].
const wins = [
  [0, 3, 2, 1],
  [1, 0, 2, 3],
  [2, 1, 0, 2],
  [1, 1, 3, 0]
]

describe('Bradley–Terry strengths', () => {
  it('reaches the maximum-likelihood estimate (direct numerical optimisation with scipy.optimize)', () => {
    const fit = bradleyTerry(wins, players)
    const expected = [0.32048845, 0.15399352, -0.2774836, -0.19699837]
    players.forEach((player, i) => expect(Math.abs((fit.logStrengths[player].value ?? NaN) - (expected[i] as number))).toBeLessThan(1e-6))
  })

  it('satisfies the likelihood equations: observed wins = expected wins, with log-strengths centred at 0', () => {
    const fit = bradleyTerry(wins, players)
    const s = players.map((player) => fit.logStrengths[player].value as number)
    expect(s.reduce((sum, v) => sum + v, 0)).toBeCloseTo(0, 12)
    players.forEach((_, i) => {
      let expectedWins = 0
      players.forEach((__, j) => {
        if (i === j) return
        const games = (wins[i]?.[j] ?? 0) + (wins[j]?.[i] ?? 0)
        expectedWins += games / (1 + Math.exp((s[j] as number) - (s[i] as number)))
      })
      const observedWins = (wins[i] as number[]).reduce((sum, v) => sum + v, 0)
      expect(expectedWins).toBeCloseTo(observedWins, 8)
    })
  })

  it('matches the closed form for two players: s = ±ln(a/b)/2', () => {
    const fit = bradleyTerry([[0, 3], [1, 0]], ['x', 'y'])
    expect(fit.logStrengths.x.value).toBeCloseTo(Math.log(3) / 2, 9)
    expect(fit.logStrengths.y.value).toBeCloseTo(-Math.log(3) / 2, 9)
  })

  it('is undefined when a player never won (the estimate would run off to −∞)', () => {
    const fit = bradleyTerry([[0, 2, 1], [1, 0, 1], [0, 0, 0]], ['x', 'y', 'z'])
    expect(fit.logStrengths.z.value).toBeNull()
    expect(fit.logStrengths.x.reason).toMatch(/do not exist/)
    expect(bradleyTerry([[0]], ['alone']).logStrengths.alone.reason).toBe('fewer than 2 players')
  })

  it('builds the win matrix from comparisons, with ties as half wins or dropped', () => {
    const comparisons: Comparison<Player>[] = [
      { first: 'p', second: 'q', winner: 'p' },
      { first: 'q', second: 'p', winner: 'p' },
      { first: 'r', second: 's', winner: 'tie' }
    ]
    expect(winMatrix(comparisons, players)).toEqual([
      [0, 2, 0, 0],
      [0, 0, 0, 0],
      [0, 0, 0, 0.5],
      [0, 0, 0.5, 0]
    ])
    expect(winMatrix(comparisons, players, 'dropped')[2]).toEqual([0, 0, 0, 0])
    expect(() => winMatrix([{ first: 'p', second: 'q', winner: 'r' }], players)).toThrow(/neither/)
    expect(() => winMatrix([{ first: 'p', second: 'p', winner: 'p' }], players)).toThrow(/itself/)
  })

  it('bootstraps intervals over items, reproducibly, counting resamples where the fit does not exist', () => {
    // One item per comparison, expanded from the win matrix.
    const items: Comparison<Player>[][] = []
    wins.forEach((row, i) => row.forEach((count, j) => {
      for (let c = 0; c < count; c++) items.push([{ first: players[i] as Player, second: players[j] as Player, winner: players[i] as Player }])
    }))
    const options = { seed: 17, resamples: 300 }
    const result = bradleyTerryBootstrap(items, (item) => item, players, options)
    expect(bradleyTerryBootstrap(items, (item) => item, players, options)).toEqual(result)
    expect(result.p.point.value).toBeCloseTo(0.32048845, 6)
    // 22 comparisons: some resamples leave a player without a win, and those fits are undefined.
    expect(result.p.undefinedResamples).toBeGreaterThan(0)
    expect(result.p.undefinedResamples).toBeLessThan(300)
    expect(result.p.lower).toBeLessThan(0.32)
    expect(result.p.upper).toBeGreaterThan(0.33)
  })
})

describe('win rate against reference proposals', () => {
  it('divides by all m references, ties counting half; reports the judged-only rate too', () => {
    const rate = winRateAgainstReferences(['win', 'win', 'tie', 'loss', 'missing'])
    expect(rate).toMatchObject({ value: 0.5, wins: 2, ties: 1, losses: 1, missing: 1, references: 5, ofJudged: { value: 0.625 } })
    expect(winRateAgainstReferences(['win', 'tie'], 0).value).toBe(0.5)
  })

  it('is undefined without references or verdicts', () => {
    expect(winRateAgainstReferences([])).toMatchObject({ value: null, reason: 'no reference proposals' })
    expect(winRateAgainstReferences(['missing']).ofJudged).toEqual({ value: null, reason: 'no reference comparison has a verdict' })
  })
})

/**
 * The textbook MM update on nested arrays (Hunter 2004), written out here as the reference: γ_i ← W_i / Σ_j n_ij /
 * (γ_i + γ_j) on log scale, centred each step, until the largest change is below 1e-10. Null where the strengths do
 * not exist (a player who never won or never lost).
 */
function textbookLogStrengths(wins: number[][]): { values: number[]; iterations: number } | null {
  const size = wins.length
  const total = wins.map((row) => row.reduce((s, c) => s + c, 0))
  if (total.some((w) => w === 0) || wins.every((row, i) => row.every((_, j) => wins[j]![i] === 0))) return null
  let log = wins.map(() => 0)
  for (let iteration = 1; iteration <= 100_000; iteration++) {
    const gamma = log.map((l) => Math.exp(l))
    const updated = log.map((_, i) => {
      let denominator = 0
      for (let j = 0; j < size; j++) if (j !== i) denominator += (wins[i]![j]! + wins[j]![i]!) / (gamma[i]! + gamma[j]!)
      return Math.log(total[i]! / denominator)
    })
    const mean = updated.reduce((s, v) => s + v, 0) / size
    const centred = updated.map((v) => v - mean)
    const change = Math.max(...centred.map((v, i) => Math.abs(v - log[i]!)))
    log = centred
    if (change < 1e-10) return { values: log, iterations: iteration }
  }
  return null
}

describe('Bradley–Terry on a win matrix laid out row by row', () => {
  it('gives the textbook update\'s log-strengths to the last bit, and the same through bradleyTerry', () => {
    const random = seededRandom(5)
    let fitted = 0
    for (let trial = 0; trial < 40; trial++) {
      const size = 2 + random.integerBelow(5)
      const players = Array.from({ length: size }, (_, i) => `p${i}`)
      // Dense matrices (every player won and lost against every other), some with halves as ties give.
      const wins = players.map((_, i) => players.map((__, j) => (i === j ? 0 : (1 + random.integerBelow(9)) / (trial % 3 === 0 ? 2 : 1))))
      const reference = textbookLogStrengths(wins)
      const flat = bradleyTerryLogStrengths(Float64Array.from(wins.flat()), size)
      expect(reference).not.toBeNull()
      expect(flat.values && [...flat.values]).toEqual(reference?.values)
      expect(flat.iterations).toBe(reference?.iterations)
      expect(players.map((p) => bradleyTerry(wins, players).logStrengths[p]?.value)).toEqual(reference?.values)
      fitted++
    }
    expect(fitted).toBe(40)
  })

  it('gives the textbook update\'s log-strengths to the last bit where most pairs never met', () => {
    const random = seededRandom(9)
    for (let trial = 0; trial < 40; trial++) {
      // Every system against one reference player (human proposals) only, some pairs of systems now and then.
      const size = 3 + random.integerBelow(5)
      const wins = Array.from({ length: size }, () => Array.from({ length: size }, () => 0))
      for (let j = 1; j < size; j++) {
        wins[0]![j] = 1 + random.integerBelow(30)
        wins[j]![0] = 1 + random.integerBelow(30)
        if (j > 1 && random.integerBelow(4) === 0) wins[j]![j - 1] = random.integerBelow(3)
      }
      const reference = textbookLogStrengths(wins)
      const flat = bradleyTerryLogStrengths(Float64Array.from(wins.flat()), size)
      expect(reference).not.toBeNull()
      expect(flat.values && [...flat.values]).toEqual(reference?.values)
      expect(flat.iterations).toBe(reference?.iterations)
    }
  })

  it('says why where the strengths do not exist, as bradleyTerry does', () => {
    // z never wins: the "beat" graph is not strongly connected.
    const wins = [[0, 2, 1], [1, 0, 1], [0, 0, 0]]
    const flat = bradleyTerryLogStrengths(Float64Array.from(wins.flat()), 3)
    expect(flat.values).toBeNull()
    expect(bradleyTerry(wins, ['x', 'y', 'z']).logStrengths.z).toEqual({ value: null, reason: flat.values === null ? flat.reason : '' })
    expect(bradleyTerryLogStrengths(new Float64Array(1), 1)).toEqual({ values: null, reason: 'fewer than 2 players', iterations: 0 })
  })

  it('refuses a matrix of the wrong shape or with a negative count, naming the cell', () => {
    expect(() => bradleyTerryLogStrengths(new Float64Array(3), 2)).toThrow(/players × players/)
    expect(() => bradleyTerryLogStrengths(Float64Array.from([0, 1, -1, 0]), 2)).toThrow(/wins\[1\]\[0\]/)
  })
})
