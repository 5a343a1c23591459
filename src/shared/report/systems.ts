import { bradleyTerryLogStrengths, undefinedBecause, winRateAgainstReferences, type ReferenceOutcome } from '../stats'
import type { BootstrapPlan } from './bootstrap-plan'
import type { ReportItem } from './input'
import { otherSide, winnerReader, type Side } from './pairwise'
import type { ItemStatus, ResolvedSource } from './resolve'
import type { ReportPairwise } from './schema'

/** The system name under which human-written proposals compete. */
export const HUMAN_SYSTEM = 'human'

type SystemsRow = ReportPairwise['systems'][number]

/**
 * Ideation systems ranked by one source's verdicts: Bradley–Terry log-strengths (centred at 0) with cluster-bootstrap
 * intervals over items, and each AI system's win rate against the human proposals it was paired with (wins/m).
 */
export function systemsOf(source: ResolvedSource, items: readonly ReportItem[], plan: BootstrapPlan): SystemsRow | null {
  const comparisons: { item: number; first: string; second: string; winner: string }[] = []
  const compared = new Set<string>()
  const outcomes = new Map<string, { outcomes: ReferenceOutcome[]; cohorts: Set<string> }>()
  const winnerOf = winnerReader(source)
  for (const item of items) {
    const pair = item.pair
    const status = pair ? source.itemStatus.get(item.id) : undefined
    if (!pair || status === undefined) continue
    const systemA = pair.a.system
    const systemB = pair.b.system
    const winner = status === 'answered' ? winnerOf(item) : null
    if (systemA && systemB && systemA !== systemB && winner) {
      comparisons.push({ item: item.id, first: systemA, second: systemB, winner: winner === 'a' ? systemA : systemB })
      compared.add(systemA).add(systemB)
    }
    for (const side of SIDES) {
      const mine = pair[side]
      const theirs = pair[otherSide(side)]
      if (!mine.system || mine.origin === 'human' || theirs.origin !== 'human') continue
      let entry = outcomes.get(mine.system)
      if (!entry) outcomes.set(mine.system, (entry = { outcomes: [], cohorts: new Set<string>() }))
      entry.outcomes.push(outcomeFor(status, winner, side))
      if (pair.cohort) entry.cohorts.add(pair.cohort)
    }
  }
  const players = [...compared].sort()
  if (players.length < 2 && outcomes.size === 0) return null
  const reasons: Record<string, string> = {}
  const strengths: SystemsRow['bradley_terry'] = []
  if (players.length >= 2) {
    // Refitted on every resample of items: a drawn item adds its comparison once per draw.
    const position = new Map(players.map((p, i) => [p, i]))
    const size = players.length
    const contributions = plan.sumColumns(comparisons.length)
    for (const c of comparisons) {
      const loser = c.winner === c.first ? c.second : c.first
      contributions.push(c.item, (position.get(c.winner) as number) * size + (position.get(loser) as number), 1)
    }
    plan.addSums(
      size * size,
      contributions,
      size,
      (sums) => {
        // sums[i × size + j]: times player i beat player j in the resample.
        const fit = bradleyTerryLogStrengths(sums, size)
        if (fit.values === null) return players.map(() => undefinedBecause(fit.reason))
        const values = fit.values
        return players.map((_, i) => ({ value: values[i] as number }))
      },
      (intervals) => {
        players.forEach((player, j) => {
          const fit = intervals[j]
          if (!fit) return
          if (fit.point.value === null) reasons[`bradley_terry.${player}`] = fit.point.reason
          strengths.push({ player, strength: fit.point.value, ci_low: fit.lower, ci_high: fit.upper, undefined_resamples: fit.undefinedResamples })
        })
      }
    )
  } else reasons.bradley_terry = 'fewer than 2 systems compared head to head'
  const winRates = [...outcomes.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([system, entry]) => {
      const rate = winRateAgainstReferences(entry.outcomes)
      if (rate.value === null) reasons[`win_rate.${system}`] = rate.reason
      return {
        system,
        wins: rate.wins,
        ties: rate.ties,
        losses: rate.losses,
        missing: rate.missing,
        m: rate.references,
        win_rate: rate.value,
        win_rate_of_judged: rate.ofJudged.value,
        cohorts: entry.cohorts.size
      }
    })
  return { source: source.id, players, n_comparisons: comparisons.length, bradley_terry: strengths, win_rates: winRates, reasons }
}

function outcomeFor(status: ItemStatus, winner: Side | null, side: Side): ReferenceOutcome {
  if (winner) return winner === side ? 'win' : 'loss'
  // Answered without a winner: the votes of its trials or orders split evenly.
  return status === 'answered' ? 'tie' : 'missing'
}

const SIDES = ['a', 'b'] as const
