import { currentAnswers } from './annotations'
import { ACTIVE_RUN_SQL } from './archive'
import type { Db } from './database'

/** One leak-audit answer about a task: who gave it and whether it found a leak. */
export interface LeakAnswer {
  itemId: number
  /** `adjudicated`, `annotator:<name>`, `model:<name>`, `reference:<name>` or `run:<id>`. */
  source: string
  leak: boolean
}

function leakOf(json: string | null): boolean | null {
  if (json === null) return null
  try {
    const v = JSON.parse(json) as { leak?: unknown }
    return typeof v.leak === 'boolean' ? v.leak : null
  } catch {
    return null
  }
}

/**
 * Every current leak-audit answer: curators' final labels (the head of each chain), people's and imported answers,
 * and the answered calls of the judge runs not archived.
 */
export function leakAuditAnswers(db: Db): LeakAnswer[] {
  const out: LeakAnswer[] = []
  const finals = db
    .prepare(
      `SELECT a.item_id, a.judgement FROM current_adjudications a
       WHERE a.instrument_id = 'leak-audit'
       ORDER BY a.item_id`
    )
    .all() as { item_id: number; judgement: string }[]
  const seen = new Set<number>()
  for (const f of finals) {
    const leak = leakOf(f.judgement)
    if (seen.has(f.item_id) || leak === null) continue
    seen.add(f.item_id)
    out.push({ itemId: f.item_id, source: 'adjudicated', leak })
  }
  for (const a of currentAnswers(db, 'leak-audit')) {
    const leak = leakOf(a.judgement)
    if (leak === null) continue
    const kind = a.source_kind === 'human' ? 'annotator' : a.source_kind === 'model' ? 'model' : 'reference'
    out.push({ itemId: a.item_id, source: `${kind}:${a.source_name}`, leak })
  }
  const calls = db
    .prepare(
      `SELECT c.item_id, c.run_id, c.judgement FROM model_calls c JOIN runs r ON r.id = c.run_id JOIN judges j ON j.id = r.judge_id
       WHERE r.instrument_id = 'leak-audit' AND c.status = 'ok' AND ${ACTIVE_RUN_SQL} ORDER BY c.item_id, c.run_id`
    )
    .all() as { item_id: number; run_id: number; judgement: string | null }[]
  for (const c of calls) {
    const leak = leakOf(c.judgement)
    if (leak !== null) out.push({ itemId: c.item_id, source: `run:${c.run_id}`, leak })
  }
  return out
}
