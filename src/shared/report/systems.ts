import { bradleyTerryLogStrengths, undefinedBecause, winRateAgainstReferences, type ReferenceOutcome } from '../stats'
import type { BootstrapPlan } from './bootstrap-plan'
import type { ReportItem } from './input'
import { otherSide, winnerReader, type Side } from './pairwise'
import type { ItemStatus, ResolvedSource } from './resolve'
import type { ReportPairwise } from './schema'

/** The system name under which human-written proposals compete. */
export const HUMAN_SYSTEM = 'human'

type SystemsRow = ReportPairwise['systems'][number]

/** An AI system's outcomes against the human proposals it was paired with, and the cohorts they came from. */
interface Outcomes {
  outcomes: ReferenceOutcome[]
  cohorts: Set<string>
  /** The cohort added last (pairs come in runs of one cohort). */
  lastCohort: string | undefined
}

/**
 * Ideation systems ranked by one source's verdicts: Bradley–Terry log-strengths (centred at 0) with cluster-bootstrap
 * intervals over items, and each AI system's win rate against the human proposals it was paired with (wins/m).
 */
export function systemsOf(source: ResolvedSource, items: readonly ReportItem[], plan: BootstrapPlan): SystemsRow | null {
  // The head-to-head comparisons as columns: item, the two systems, and the winner.
  const compared = new Set<string>()
  const comparedItems: number[] = []
  const firsts: string[] = []
  const seconds: string[] = []
  const winners: string[] = []
  const outcomes = new Map<string, Outcomes>()
  // Pairs repeat a few systems and cohorts: the last of each are passed over without a lookup.
  let lastA: string | undefined
  let lastB: string | undefined
  let lastSystem: string | undefined
  let lastEntry: Outcomes | undefined
  const winnerOf = winnerReader(source)
  for (const item of items) {
    const pair = item.pair
    const status = pair ? source.itemStatus.get(item.id) : undefined
    if (!pair || status === undefined) continue
    const systemA = pair.a.system
    const systemB = pair.b.system
    const winner = status === 'answered' ? winnerOf(item) : null
    if (systemA && systemB && systemA !== systemB && winner) {
      comparedItems.push(item.id)
      firsts.push(systemA)
      seconds.push(systemB)
      winners.push(winner === 'a' ? systemA : systemB)
      if (systemA !== lastA || systemB !== lastB) {
        compared.add(systemA).add(systemB)
        lastA = systemA
        lastB = systemB
      }
    }
    for (const side of SIDES) {
      const mine = pair[side]
      const theirs = pair[otherSide(side)]
      if (!mine.system || mine.origin === 'human' || theirs.origin !== 'human') continue
      let entry = mine.system === lastSystem ? lastEntry : outcomes.get(mine.system)
      if (!entry) outcomes.set(mine.system, (entry = { outcomes: [], cohorts: new Set<string>(), lastCohort: undefined }))
      lastSystem = mine.system
      lastEntry = entry
      entry.outcomes.push(outcomeFor(status, winner, side))
      if (pair.cohort && pair.cohort !== entry.lastCohort) {
        entry.cohorts.add(pair.cohort)
        entry.lastCohort = pair.cohort
      }
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
    const contributions = plan.sumColumns(comparedItems.length)
    for (let c = 0; c < comparedItems.length; c++) {
      const winner = winners[c] as string
      const loser = winner === firsts[c] ? (seconds[c] as string) : (firsts[c] as string)
      contributions.push(comparedItems[c] as number, (position.get(winner) as number) * size + (position.get(loser) as number), 1)
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
  return { source: source.id, players, n_comparisons: comparedItems.length, bradley_terry: strengths, win_rates: winRates, reasons }
}

function outcomeFor(status: ItemStatus, winner: Side | null, side: Side): ReferenceOutcome {
  if (winner) return winner === side ? 'win' : 'loss'
  // Answered without a winner: the votes of its trials or orders split evenly.
  return status === 'answered' ? 'tie' : 'missing'
}

const SIDES = ['a', 'b'] as const
