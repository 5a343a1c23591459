import { AssayError } from '../../shared/errors'
import type { ReportSourceInput, SourceCall } from '../../shared/report'
import { companyOf, UNKNOWN_COMPANY, type Company } from '../providers/companies'
import { MATCH_PANEL_RULE, matchPanel, type MatchScore } from '../runner/panel'
import { generatorCompany } from '../runner/panel-scores'

/** A judge that can sit on the panel: a judge with all its runs, or an imported model source. */
interface Candidate {
  /** What `--panel` names it by: the judge's name, or `model:<name>` for an import. */
  key: string
  name: string
  company: Company
  /** Its newest run (0 for an import): the default panel takes the newest judge of each company. */
  newest: number
  calls: SourceCall[]
}

/**
 * A judge's calls over all its runs: for each item, those of its newest run that asked about the item. Judging set
 * by set in separate runs keeps every set; asking a set again replaces the earlier answers on it.
 */
function judgeCandidates(sources: readonly ReportSourceInput[]): Candidate[] {
  const byJudge = new Map<string, ReportSourceInput[]>()
  for (const s of sources) {
    if (s.kind !== 'judge_run') continue
    const judge = String(s.detail.judge)
    const runs = byJudge.get(judge)
    if (runs) runs.push(s)
    else byJudge.set(judge, [s])
  }
  const out: Candidate[] = []
  for (const [judge, runs] of byJudge) {
    runs.sort((a, b) => Number(b.detail.run_id) - Number(a.detail.run_id))
    const runOfItem = new Map<number, number>()
    const calls: SourceCall[] = []
    for (const run of runs) {
      const id = Number(run.detail.run_id)
      for (const call of run.calls) {
        if (!runOfItem.has(call.itemId)) runOfItem.set(call.itemId, id)
        if (runOfItem.get(call.itemId) === id) calls.push(call)
      }
    }
    out.push({ key: judge, name: judge, company: String(runs[0]!.detail.company) as Company, newest: Number(runs[0]!.detail.run_id), calls })
  }
  for (const s of sources) {
    if (s.kind === 'model_import') out.push({ key: s.id, name: s.name, company: companyOf({ provider: 'openai-compatible', model: s.name }), newest: 0, calls: s.calls })
  }
  return out
}

/** The members named (a judge's name, `run:<id>` for that run's judge, `model:<name>` or an import's name). */
function chosenMembers(candidates: readonly Candidate[], sources: readonly ReportSourceInput[], names: readonly string[]): Candidate[] {
  const out: Candidate[] = []
  for (const name of names) {
    const run = /^run:(\d+)$/.exec(name)
    const judge = run ? sources.find((s) => s.kind === 'judge_run' && String(s.detail.run_id) === run[1])?.detail.judge : undefined
    const found = candidates.find((c) => c.key === (judge ?? name) || c.key === `model:${name}`)
    if (!found) {
      throw new AssayError('invalid_input', `No judge "${name}" for the panel; judges: ${candidates.map((c) => c.key).join(', ') || 'none'}`, [{ field: 'panel', message: `unknown judge "${name}"` }])
    }
    if (!out.includes(found)) out.push(found)
  }
  return out
}

/** The sources' panel: four judges of four companies, here the newest judge of each company. */
function defaultMembers(candidates: readonly Candidate[]): Candidate[] {
  const byCompany = new Map<string, Candidate>()
  candidates.forEach((c, i) => {
    // A company nobody knows groups nothing: each such judge stands alone.
    const key = c.company === UNKNOWN_COMPANY ? `${UNKNOWN_COMPANY}#${i}` : c.company
    const held = byCompany.get(key)
    if (!held || c.newest > held.newest) byCompany.set(key, c)
  })
  return [...byCompany.values()]
}

export interface PanelInput {
  source: ReportSourceInput | null
  rule: string
}

/**
 * The cross-company panel of the hypothesis benchmark as a source of its own, decided by the runner's rule
 * (`matchPanel`): per hypothesis, at least 2 of the 3 judges from companies other than the generator's give match ≥ 3.
 * Its members are the judges named (`--panel`), or by default the sources' panel of four judges of four companies:
 * the newest judge of each company, formed only when there are at most four companies, since a fifth would leave
 * every hypothesis with more than three judges and so undecided.
 */
export function panelSourceInput(sources: readonly ReportSourceInput[], payloads: ReadonlyMap<number, Record<string, unknown>>, chosen?: readonly string[]): PanelInput | null {
  const candidates = judgeCandidates(sources)
  const members = chosen?.length ? chosenMembers(candidates, sources, chosen) : defaultMembers(candidates)
  const how = chosen?.length ? 'chosen' : 'by default the newest judge of each company'
  const named = members.map((m) => `${m.name} (${m.company})`).join(', ')
  const ruleText = `matched when at least ${MATCH_PANEL_RULE.votesNeeded} of the ${MATCH_PANEL_RULE.size} judges from companies other than the generator's give match ≥ ${MATCH_PANEL_RULE.threshold} (a judge's trials by their median); undecided while a missing score could change the outcome, or where more than ${MATCH_PANEL_RULE.size} members are of other companies than the generator's`
  if (members.length < MATCH_PANEL_RULE.size) return chosen?.length ? { source: null, rule: `${ruleText}; no panel: ${members.length} member${members.length === 1 ? '' : 's'} chosen (${named}), the rule needs at least ${MATCH_PANEL_RULE.size}` } : null
  if (!chosen?.length && members.length > MATCH_PANEL_RULE.size + 1) {
    return { source: null, rule: `${ruleText}; no panel: judges of ${members.length} companies (${named}); name the four members with --panel` }
  }

  const scores: MatchScore[] = []
  for (const member of members) {
    for (const call of member.calls) {
      if (call.status === 'pending') continue
      const payload = payloads.get(call.itemId)
      if (!payload) continue
      const setId = String(payload.set_id ?? '')
      const hypotheses = Array.isArray(payload.hypotheses) ? (payload.hypotheses as { id: string }[]) : []
      for (const h of hypotheses) {
        const match = call.observations.find((o) => o.unit === `${setId}:${h.id}`)?.values.match
        scores.push({ setId, hypothesisId: h.id, generatorCompany: generatorCompany(payload), judge: member.key, judgeCompany: member.company, match: call.status === 'ok' && typeof match === 'number' ? match : null })
      }
    }
  }
  const itemOfSet = new Map<string, number>()
  for (const [itemId, payload] of payloads) itemOfSet.set(String(payload.set_id ?? ''), itemId)
  const byItem = new Map<number, SourceCall>()
  let undecided = 0
  // Why each undecided hypothesis is undecided, counted: a panel of more other-company judges than the rule counts
  // (a generator of none of the members' companies) leaves every one undecided, and that is said.
  const undecidedWhy = new Map<string, number>()
  for (const result of matchPanel(scores)) {
    const itemId = itemOfSet.get(result.setId)
    if (itemId === undefined) continue
    let call = byItem.get(itemId)
    if (!call) byItem.set(itemId, (call = { itemId, trial: 0, order: 0, status: 'ok', observations: [] }))
    if (result.matched === null) {
      undecided++
      const why = `${result.reason ?? 'no decision'}${result.overfull && !chosen?.length ? " (the generator is of none of the members' companies: name three members with --panel)" : ''}`
      undecidedWhy.set(why, (undecidedWhy.get(why) ?? 0) + 1)
    }
    call.observations.push({ unit: `${result.setId}:${result.hypothesisId}`, values: { matched: result.matched } })
  }
  return {
    source: {
      id: 'panel',
      kind: 'panel',
      name: 'Cross-company panel',
      detail: {
        members: named,
        members_chosen: chosen?.length ? 'chosen' : 'default',
        n_undecided: undecided,
        ...(undecided ? { undecided_why: [...undecidedWhy].map(([why, n]) => `${n}: ${why}`).join('; ') } : {})
      },
      calls: [...byItem.values()]
    },
    rule: `${ruleText}; members (${how}): ${named}`
  }
}
