import type { Db } from '../store/database'
import { probeChecks } from '../store/probes'

// Whether a probe passed its check, from the current human answers of the probe-check instrument (and a curator's
// adjudication, which decides where there is one). A probe passes when the intended flaw is present and is the only
// substantive change; one failing check rejects it until an adjudication says otherwise.

export type ProbeStatus = 'verified' | 'rejected' | 'unchecked'

export interface ProbeVerification {
  status: ProbeStatus
  checks: number
  verifiedBy: string[]
  /** Severity the checkers gave the planted flaw (adjudicated, or the most common among passing checks). */
  severity: string | null
}

interface CheckRow {
  item_id: number
  source_name: string
  judgement: string
}

export function probeVerifications(db: Db): Map<number, ProbeVerification> {
  const { answers, adjudicated } = probeChecks(db)
  const out = new Map<number, ProbeVerification>()
  const passes = (j: { flaw_present?: boolean; only_change?: boolean }) => j.flaw_present === true && j.only_change === true
  const byItem = new Map<number, CheckRow[]>()
  for (const r of answers) byItem.set(r.item_id, [...(byItem.get(r.item_id) ?? []), r])
  for (const [itemId, rows] of byItem) {
    const parsed = rows.map((r) => ({ who: r.source_name, j: JSON.parse(r.judgement) as { flaw_present?: boolean; only_change?: boolean; severity?: string } }))
    const ok = parsed.filter((p) => passes(p.j))
    const severities = ok.map((p) => p.j.severity).filter((s): s is string => typeof s === 'string')
    out.set(itemId, {
      status: ok.length === parsed.length ? 'verified' : 'rejected',
      checks: parsed.length,
      verifiedBy: ok.map((p) => p.who),
      severity: mostCommon(severities)
    })
  }
  for (const r of adjudicated) {
    const j = JSON.parse(r.judgement) as { flaw_present?: boolean; only_change?: boolean; severity?: string }
    const prev = out.get(r.item_id)
    out.set(r.item_id, {
      status: passes(j) ? 'verified' : 'rejected',
      checks: (prev?.checks ?? 0) + 1,
      verifiedBy: passes(j) ? [...(prev?.verifiedBy ?? []), `${r.source_name} (adjudicated)`] : [],
      severity: j.severity ?? null
    })
  }
  return out
}

function mostCommon(values: readonly string[]): string | null {
  const counts = new Map<string, number>()
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1)
  let best: string | null = null
  for (const [v, n] of counts) if (best === null || n > counts.get(best)!) best = v
  return best
}
