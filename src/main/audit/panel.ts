import type { AuditSourceInput, SourceCall } from '../../shared/report'
import { companyOf } from '../providers/companies'
import { MATCH_PANEL_RULE, matchPanel, type MatchScore } from '../runner/panel'
import { generatorCompany } from '../runner/panel-store'

/**
 * The cross-company panel of the hypothesis benchmark as a source of its own, decided by the runner's rule
 * (`matchPanel`): per hypothesis, at least 2 of the 3 judges from companies other than the generator's give match ≥ 3.
 * Its members are the latest run of each judge and every imported model source.
 */
export function panelSourceInput(
  sources: readonly AuditSourceInput[],
  payloads: ReadonlyMap<number, Record<string, unknown>>
): { source: AuditSourceInput; rule: string } | null {
  const latestRun = new Map<string, AuditSourceInput>()
  for (const s of sources) {
    if (s.kind !== 'judge_run') continue
    const judge = String(s.detail.judge)
    const held = latestRun.get(judge)
    if (!held || Number(s.detail.run_id) > Number(held.detail.run_id)) latestRun.set(judge, s)
  }
  const members = [...latestRun.values(), ...sources.filter((s) => s.kind === 'model_import')]
  if (members.length < MATCH_PANEL_RULE.size) return null

  const scores: MatchScore[] = []
  for (const member of members) {
    const judge = member.kind === 'judge_run' ? String(member.detail.judge) : member.name
    const judgeCompany = member.kind === 'judge_run' ? String(member.detail.company) : companyOf({ provider: 'openai-compatible', model: member.name })
    for (const call of member.calls) {
      if (call.status === 'pending') continue
      const payload = payloads.get(call.itemId)
      if (!payload) continue
      const setId = String(payload.set_id ?? '')
      const hypotheses = Array.isArray(payload.hypotheses) ? (payload.hypotheses as { id: string }[]) : []
      for (const h of hypotheses) {
        const match = call.observations.find((o) => o.unit === `${setId}:${h.id}`)?.values.match
        scores.push({
          setId,
          hypothesisId: h.id,
          generatorCompany: generatorCompany(payload),
          judge,
          judgeCompany,
          match: call.status === 'ok' && typeof match === 'number' ? match : null
        })
      }
    }
  }
  const itemOfSet = new Map<string, number>()
  for (const [itemId, payload] of payloads) itemOfSet.set(String(payload.set_id ?? ''), itemId)
  const byItem = new Map<number, SourceCall>()
  let undecided = 0
  for (const result of matchPanel(scores)) {
    const itemId = itemOfSet.get(result.setId)
    if (itemId === undefined) continue
    let call = byItem.get(itemId)
    if (!call) byItem.set(itemId, (call = { itemId, trial: 0, order: 0, status: 'ok', observations: [] }))
    if (result.matched === null) undecided++
    call.observations.push({ unit: `${result.setId}:${result.hypothesisId}`, values: { matched: result.matched } })
  }
  const memberList = members.map((m) => m.name).join(', ')
  const rule = `matched when at least ${MATCH_PANEL_RULE.votesNeeded} of the ${MATCH_PANEL_RULE.size} judges from companies other than the generator's give match ≥ ${MATCH_PANEL_RULE.threshold} (a judge's trials by their median); undecided while a missing score could change the outcome`
  return {
    source: {
      id: 'panel',
      kind: 'panel',
      name: 'Cross-company panel',
      detail: { members: memberList, n_undecided: undecided },
      calls: [...byItem.values()]
    },
    rule
  }
}
