import { MATCH_THRESHOLD } from '../../shared/instruments'
import { sameCompany, type Company } from '../providers/companies'

// The match outcome of the hypothesis benchmark: a hypothesis matches its reference when at least two of the three
// judges from companies other than the generator's give it `match` ≥ 3. The panel of a hypothesis therefore depends
// on who generated it; a judge of the generator's own company never votes on it.

export const PANEL_SIZE = 3
export const PANEL_VOTES_NEEDED = 2

/** One judge's score of one hypothesis, from one completed call (one trial). */
export interface MatchScore {
  setId: string
  hypothesisId: string
  generatorCompany: Company
  judge: string
  judgeCompany: Company
  /** null when the judge's call failed or its answer was unparseable. */
  match: number | null
}

export interface PanelVote {
  judge: string
  company: Company
  /** The judge's score; the median over its trials when it has several. */
  match: number | null
}

export interface PanelResult {
  setId: string
  hypothesisId: string
  generatorCompany: Company
  /** null when the rule cannot decide: scores missing that could change the outcome, or more than three judges. */
  matched: boolean | null
  votesFor: number
  panel: PanelVote[]
  reason: string | null
  /** More judges of other companies than the rule counts (a generator of none of the panel's companies). */
  overfull: boolean
}

export interface PanelRule {
  size: number
  votesNeeded: number
  threshold: number
}

export const MATCH_PANEL_RULE: PanelRule = { size: PANEL_SIZE, votesNeeded: PANEL_VOTES_NEEDED, threshold: MATCH_THRESHOLD }

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/**
 * Applies the rule to every hypothesis that has scores. A judge with several trials is represented by the median of
 * its scores (a judge is one vote, however often it was asked). An unknown company never excludes a judge. With a
 * score missing (a failed or unreadable call) the outcome is given only when the missing vote could not change it.
 */
export function matchPanel(scores: readonly MatchScore[], rule: PanelRule = MATCH_PANEL_RULE): PanelResult[] {
  const byHypothesis = new Map<string, MatchScore[]>()
  for (const s of scores) {
    const key = JSON.stringify([s.setId, s.hypothesisId])
    const list = byHypothesis.get(key)
    if (list) list.push(s)
    else byHypothesis.set(key, [s])
  }
  const results: PanelResult[] = []
  for (const list of byHypothesis.values()) {
    const first = list[0]!
    const byJudge = new Map<string, { company: Company; values: number[]; asked: boolean }>()
    for (const s of list) {
      if (sameCompany(s.judgeCompany, s.generatorCompany)) continue
      const entry = byJudge.get(s.judge) ?? { company: s.judgeCompany, values: [], asked: true }
      if (s.match !== null) entry.values.push(s.match)
      byJudge.set(s.judge, entry)
    }
    const panel: PanelVote[] = [...byJudge.entries()].map(([judge, e]) => ({ judge, company: e.company, match: e.values.length ? median(e.values) : null }))
    const scored = panel.filter((v) => v.match !== null)
    const votesFor = scored.filter((v) => (v.match as number) >= rule.threshold).length
    const missing = rule.size - scored.length
    let matched: boolean | null = votesFor >= rule.votesNeeded
    let reason: string | null = null
    if (missing < 0) {
      matched = null
      reason = `the panel has ${scored.length} judges from other companies; the rule needs ${rule.size}`
    } else if (missing > 0) {
      // A missing score decides nothing when the others have settled the outcome either way.
      const settled = votesFor >= rule.votesNeeded || votesFor + missing < rule.votesNeeded
      if (!settled) matched = null
      reason = `${missing} of the ${rule.size} panel scores missing${settled ? '; the others settle the outcome' : ''}`
    }
    results.push({ setId: first.setId, hypothesisId: first.hypothesisId, generatorCompany: first.generatorCompany, matched, votesFor, panel, reason, overfull: missing < 0 })
  }
  return results
}
