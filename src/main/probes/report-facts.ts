import type { Db } from '../store/database'
import type { AuditInput } from '../../shared/report/input'
import { probesSection, type ProbeFacts } from '../../shared/report/probes'
import type { Report } from '../../shared/report/schema'
import { DEFAULT_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_SEED } from '../../shared/stats'
import { listProbes } from './store'
import { probeVerifications } from './verification'

/** The probes of a project as the report reads them: family, kind, sides, expected rule and check outcome. */
export function probeFacts(db: Db): ProbeFacts[] {
  const hasTable = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'probes'`).get()
  if (!hasTable) return []
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

/** Adds the "Probes" section to a report built from `input`, where the report's items include probes. */
export function attachProbesSection(db: Db, input: AuditInput, report: Report, options: { level?: number; resamples?: number; seed?: number } = {}): Report {
  const section = probesSection(input, probeFacts(db), {
    level: options.level ?? 0.95,
    resamples: options.resamples ?? DEFAULT_BOOTSTRAP_RESAMPLES,
    seed: options.seed ?? DEFAULT_BOOTSTRAP_SEED
  })
  if (section) report.probes = section
  return report
}
