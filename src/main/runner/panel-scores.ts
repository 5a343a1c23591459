import { AssayError } from '../../shared/errors'
import { companyOf, UNKNOWN_COMPANY } from '../providers/companies'
import type { Db } from '../store/database'
import { getRunRow } from '../store/model-calls'
import { callsWithPayloads } from '../store/step-calls'
import { getJudge } from './judges'
import { matchPanel, type MatchScore, type PanelResult } from './panel'

/** The company that generated a hypothesis set: as imported, else inferred from the generator's model name. */
export function generatorCompany(payload: Record<string, unknown>): string {
  if (typeof payload.company === 'string' && payload.company.trim()) return payload.company.trim().toLowerCase()
  if (typeof payload.generator === 'string' && payload.generator.trim()) return companyOf({ provider: 'openai-compatible', model: payload.generator })
  return UNKNOWN_COMPANY
}

/** The scores of hypothesis-match runs, one per judge, trial and hypothesis (null where the call gave none). */
export function matchScoresOfRuns(db: Db, runIds: readonly number[]): MatchScore[] {
  const scores: MatchScore[] = []
  for (const runId of runIds) {
    const run = getRunRow(db, runId)
    if (!run) throw new AssayError('not_found', `No run ${runId}`)
    if (run.instrument_id !== 'hypothesis-match') throw new AssayError('invalid_input', `Run ${runId} asks ${run.instrument_id}, not hypothesis-match`)
    const judge = getJudge(db, run.judge_id)
    const calls = callsWithPayloads(db, runId)
    for (const c of calls) {
      if (c.status === 'pending') continue
      const payload = JSON.parse(c.payload) as { set_id?: string; hypotheses?: { id: string }[] } & Record<string, unknown>
      const setId = String(payload.set_id ?? '')
      const generator = generatorCompany(payload)
      const given = new Map<string, number>()
      if (c.status === 'ok' && c.judgement) {
        for (const s of (JSON.parse(c.judgement) as { scores?: { id: string; match: number }[] }).scores ?? []) given.set(s.id, s.match)
      }
      for (const h of payload.hypotheses ?? []) {
        scores.push({ setId, hypothesisId: h.id, generatorCompany: generator, judge: judge.name, judgeCompany: judge.effectiveCompany, match: given.get(h.id) ?? null })
      }
    }
  }
  return scores
}

export function matchPanelOfRuns(db: Db, runIds: readonly number[]): PanelResult[] {
  return matchPanel(matchScoresOfRuns(db, runIds))
}
