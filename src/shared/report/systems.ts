import { bradleyTerryLogStrengths, undefinedBecause, winRateAgainstReferences, type ReferenceOutcome } from '../stats'
import type { BootstrapPlan } from './bootstrap-plan'
import type { ReportItem } from './input'
import { winnerReader, type Side } from './pairwise'
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
 * What systemsOf reads of each pair, by the item's place in the report's items, made once per report (every source
 * reads the same): each side's system as an index into `systems` (-1: none named), and whether it is human-written.
 */
export interface PairSystems {
  systems: string[]
  a: Int32Array
  b: Int32Array
  humanA: Uint8Array
  humanB: Uint8Array
}

/** The systems and origins of the report's pairs, in the order of its items. */
export function pairSystems(items: readonly ReportItem[]): PairSystems {
  const systems: string[] = []
  const indexOf = new Map<string, number>()
  const intern = (system: string | null): number => {
    if (!system) return -1
    let index = indexOf.get(system)
    if (index === undefined) {
      index = systems.length
      indexOf.set(system, index)
      systems.push(system)
    }
    return index
  }
  const made: PairSystems = { systems, a: new Int32Array(items.length), b: new Int32Array(items.length), humanA: new Uint8Array(items.length), humanB: new Uint8Array(items.length) }
  for (let i = 0; i < items.length; i++) {
    const pair = (items[i] as ReportItem).pair
    if (!pair) continue
    made.a[i] = intern(pair.a.system)
    made.b[i] = intern(pair.b.system)
    made.humanA[i] = pair.a.origin === 'human' ? 1 : 0
    made.humanB[i] = pair.b.origin === 'human' ? 1 : 0
  }
  return made
}

/**
 * Ideation systems ranked by one source's verdicts: Bradley–Terry log-strengths (centred at 0) with cluster-bootstrap
 * intervals over items, and each AI system's win rate against the human proposals it was paired with (wins/m).
 */
export function systemsOf(source: ResolvedSource, items: readonly ReportItem[], facts: PairSystems, plan: BootstrapPlan): SystemsRow | null {
  // The head-to-head comparisons as columns: item, and the winning and losing systems (indices into facts.systems).
  const comparedItems: number[] = []
  const winners: number[] = []
  const losers: number[] = []
  const compared = new Uint8Array(facts.systems.length)
  // Outcomes against human proposals, by system index.
  const outcomes: Array<Outcomes | undefined> = []
  const winnerOf = winnerReader(source)
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as ReportItem
    const pair = item.pair
    const status = pair ? source.itemStatus.get(item.id) : undefined
    if (!pair || status === undefined) continue
    const systemA = facts.a[i] as number
    const systemB = facts.b[i] as number
    const winner = status === 'answered' ? winnerOf(item) : null
    if (systemA >= 0 && systemB >= 0 && systemA !== systemB && winner) {
      comparedItems.push(item.id)
      winners.push(winner === 'a' ? systemA : systemB)
      losers.push(winner === 'a' ? systemB : systemA)
      compared[systemA] = 1
      compared[systemB] = 1
    }
    // The ties policy: a pair the human majority's annotators split on has no majority label, so it is no outcome of
    // that majority's (neither a tie nor missing), as in its pairwise and field rows.
    if (status === 'answered' && !winner && source.input.kind === 'human_majority') continue
    // An AI side set against a human-written one.
    if (systemA >= 0 && facts.humanA[i] === 0 && facts.humanB[i] === 1) addOutcome(outcomes, systemA, outcomeFor(status, winner, 'a'), pair.cohort)
    if (systemB >= 0 && facts.humanB[i] === 0 && facts.humanA[i] === 1) addOutcome(outcomes, systemB, outcomeFor(status, winner, 'b'), pair.cohort)
  }
  const players = facts.systems.filter((_, k) => compared[k] === 1).sort()
  const outcomeCount = outcomes.reduce((n, o) => (o ? n + 1 : n), 0)
  if (players.length < 2 && outcomeCount === 0) return null
  const reasons: Record<string, string> = {}
  const strengths: SystemsRow['bradley_terry'] = []
  if (players.length >= 2) {
    // Refitted on every resample of items: a drawn item adds its comparison once per draw.
    // Each system's place among the players.
    const position = new Int32Array(facts.systems.length)
    const byName = new Map(players.map((p, i) => [p, i]))
    facts.systems.forEach((system, k) => (position[k] = byName.get(system) ?? -1))
    const size = players.length
    const contributions = plan.sumColumns(comparedItems.length)
    for (let c = 0; c < comparedItems.length; c++) {
      contributions.push(comparedItems[c] as number, (position[winners[c] as number] as number) * size + (position[losers[c] as number] as number), 1)
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
  const winRates = outcomes
    .flatMap((entry, k) => (entry ? [[facts.systems[k] as string, entry] as const] : []))
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

function addOutcome(outcomes: Array<Outcomes | undefined>, system: number, outcome: ReferenceOutcome, cohort: string | null | undefined): void {
  let entry = outcomes[system]
  if (!entry) outcomes[system] = entry = { outcomes: [], cohorts: new Set<string>(), lastCohort: undefined }
  entry.outcomes.push(outcome)
  // Pairs come in runs of one cohort: the last one added is passed over without a lookup.
  if (cohort && cohort !== entry.lastCohort) {
    entry.cohorts.add(cohort)
    entry.lastCohort = cohort
  }
}

function outcomeFor(status: ItemStatus, winner: Side | null, side: Side): ReferenceOutcome {
  if (winner) return winner === side ? 'win' : 'loss'
  // Answered without a winner: the votes of its trials or orders split evenly.
  return status === 'answered' ? 'tie' : 'missing'
}

