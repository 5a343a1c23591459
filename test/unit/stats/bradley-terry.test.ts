import { describe, expect, it } from 'vitest'
import {
  bradleyTerry,
  bradleyTerryBootstrap,
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
