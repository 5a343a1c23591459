import { judgeFlawAuditRowSchema, type JudgeFlawAuditRow } from './fatal-flaw-audits-schema'
import type { ReportItem, FlawAuditInput, JudgeFlawAuditInput } from './input'
import type { Side } from './pairwise'
import { wilsonInterval } from '../stats/wilson-interval'

// The fatal-flaw section of a pairwise report beside its verdict-based recall: judges asked the flaw audit itself on
// the same pairs. Of the proposals people marked fatal (the other proposal of the pair not so marked), how often the
// judge's own flaw audit marked that proposal fatal, and how often it marked the other one fatal instead.

export { judgeFlawAuditRowSchema, type JudgeFlawAuditRow }

function fatalOn(audit: FlawAuditInput, unit: string, side: Side): boolean | null {
  const v = audit.observations.find((o) => o.unit === `${unit}:${side}`)?.values.has_fatal
  return typeof v === 'boolean' ? v : null
}

export function judgeFlawAuditRows(
  audits: readonly JudgeFlawAuditInput[],
  marked: ReadonlyMap<number, ReadonlySet<Side>>,
  items: ReadonlyMap<number, ReportItem>,
  level: number
): JudgeFlawAuditRow[] {
  const bySource = new Map<string, JudgeFlawAuditInput[]>()
  for (const a of audits) bySource.set(a.sourceId, [...(bySource.get(a.sourceId) ?? []), a])
  const rows: JudgeFlawAuditRow[] = []
  for (const [source, list] of bySource) {
    let fatal = 0
    let named = 0
    let other = 0
    let unparseable = 0
    const audited = new Set<number>()
    const asked = new Set<number>()
    for (const audit of list) {
      const unit = items.get(audit.itemId)?.pair?.unit
      if (!unit) continue
      asked.add(audit.itemId)
      // The first answer per pair (trial 0, order 0 come first); a call never answered is no answer.
      if (audited.has(audit.itemId) || !(audit.status === 'ok' || audit.status === 'unparseable')) continue
      audited.add(audit.itemId)
      const sides = marked.get(audit.itemId)
      if (!sides || sides.size !== 1) continue
      const side = [...sides][0]!
      if (audit.status === 'unparseable') {
        fatal++
        unparseable++
        continue
      }
      const here = fatalOn(audit, unit, side)
      if (here === null) continue
      fatal++
      if (here) named++
      if (fatalOn(audit, unit, side === 'a' ? 'b' : 'a') === true) other++
    }
    let unanswered = 0
    for (const itemId of asked) if (!audited.has(itemId) && marked.get(itemId)?.size === 1) unanswered++
    const w = fatal ? wilsonInterval(named, fatal, level) : null
    rows.push({
      source,
      name: list[0]!.name,
      n_fatal: fatal,
      n_unparseable: unparseable,
      n_unanswered: unanswered,
      n_named: named,
      recall: fatal ? named / fatal : null,
      recall_ci: w && w.value !== null ? [w.lower, w.upper] : null,
      n_other_side_fatal: other,
      n_audited: audited.size
    })
  }
  return rows.sort((a, b) => a.source.localeCompare(b.source, 'en', { numeric: true }))
}
