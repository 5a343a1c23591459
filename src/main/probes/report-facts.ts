import { hasTable, type Db } from '../store/database'
import type { ProbeFacts } from '../../shared/report/probes'
import { listProbes } from '../store/probes'
import { probeVerifications } from './verification'

/** The probes of a project as the report reads them: family, kind, sides, expected rule and check outcome. */
export function probeFacts(db: Db): ProbeFacts[] {
  if (!hasTable(db, 'probes')) return []
  const checks = probeVerifications(db)
  return listProbes(db).map((p) => ({
    itemId: p.itemId,
    family: p.family,
    kind: p.kind,
    probeSide: p.provenance.probe_side,
    rule: p.provenance.expected.pairwise,
    status: checks.get(p.itemId)?.status ?? 'unchecked',
    flawType: p.provenance.expected.flaw?.type ?? null,
    evidence: p.provenance.expected.flaw?.evidence ?? null
  }))
}
