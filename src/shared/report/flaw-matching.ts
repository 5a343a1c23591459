import { wilsonInterval } from '../stats/wilson-interval'
import type { FlawMatchCell, FlawMatchingSection, FlawMatchRow } from './flaw-matching-schema'
import { JUDGE_KINDS, type ReportInput, type ReportSourceInput, type FlawRecord, type SourceCall } from './input'

// Judges' flaw audits against the experts': a flaw is a side and a type of a pair. The reference is the adjudicated
// audit where the pair has one, else the experts' majority (a side and type more than half of the experts who audited
// the pair listed, with the severity most of them gave it, the worse one on a tie). A judge's flaw matches when the
// reference has the same side and type on the same pair; how closely the quotes agree is reported beside, not
// required, since two people rarely quote the same words for one flaw.

export const FLAW_MATCH_RULE = 'same pair, side and type; reference: adjudicated audit, else experts\u2019 majority (more than half)'
const SEVERITY_ORDER = ['minor', 'major', 'fatal']

/** The flaws of a flaw-audit judgement, for matching (gather attaches them to each call). */
export function flawRecordsOf(judgement: unknown): { flaws: FlawRecord[]; unparseableFlaws: number } | null {
  const j = judgement as { flaws?: unknown; unparseable_flaws?: unknown } | null
  if (!j || !Array.isArray(j.flaws)) return null
  const flaws = (j.flaws as Record<string, unknown>[]).map((f) => ({ side: f.side as 'a' | 'b', type: String(f.type), severity: String(f.severity), evidence: String(f.evidence ?? '') }))
  return { flaws, unparseableFlaws: Array.isArray(j.unparseable_flaws) ? j.unparseable_flaws.length : 0 }
}

interface RefFlaw {
  severity: string
  quotes: string[]
}

const keyOf = (f: { side: string; type: string }) => `${f.side}\u0000${f.type}`

function firstAnswer(source: ReportSourceInput): Map<number, SourceCall> {
  const out = new Map<number, SourceCall>()
  for (const c of source.calls) if (c.status === 'ok' && c.flaws && !out.has(c.itemId)) out.set(c.itemId, c)
  return out
}

function worse(a: string, b: string): string {
  return SEVERITY_ORDER.indexOf(a) >= SEVERITY_ORDER.indexOf(b) ? a : b
}

/** Per pair: the reference flaws by side and type, and which reference it is. */
function referenceFlaws(input: ReportInput): Map<number, { kind: string; flaws: Map<string, RefFlaw> }> {
  const out = new Map<number, { kind: string; flaws: Map<string, RefFlaw> }>()
  const adjudicated = input.sources.find((s) => s.kind === 'adjudicated')
  for (const [itemId, call] of adjudicated ? firstAnswer(adjudicated) : []) {
    const flaws = new Map<string, RefFlaw>()
    for (const f of call.flaws!) {
      const had = flaws.get(keyOf(f))
      flaws.set(keyOf(f), { severity: had ? worse(had.severity, f.severity) : f.severity, quotes: [...(had?.quotes ?? []), f.evidence] })
    }
    out.set(itemId, { kind: 'adjudicated', flaws })
  }
  const experts = input.sources.filter((s) => s.kind === 'annotator').map(firstAnswer)
  const items = new Set(experts.flatMap((m) => [...m.keys()]))
  for (const itemId of items) {
    if (out.has(itemId)) continue
    const audits = experts.flatMap((m) => (m.has(itemId) ? [m.get(itemId)!] : []))
    const votes = new Map<string, { n: number; severities: string[]; quotes: string[] }>()
    for (const audit of audits) {
      const seen = new Map<string, FlawRecord[]>()
      for (const f of audit.flaws!) seen.set(keyOf(f), [...(seen.get(keyOf(f)) ?? []), f])
      for (const [key, fs] of seen) {
        const v = votes.get(key) ?? { n: 0, severities: [], quotes: [] }
        v.n++
        v.severities.push(fs.map((f) => f.severity).reduce(worse))
        v.quotes.push(...fs.map((f) => f.evidence))
        votes.set(key, v)
      }
    }
    const flaws = new Map<string, RefFlaw>()
    for (const [key, v] of votes) {
      if (v.n * 2 <= audits.length) continue
      const counts = new Map<string, number>()
      for (const s of v.severities) counts.set(s, (counts.get(s) ?? 0) + 1)
      const severity = [...counts].sort((a, b) => b[1] - a[1] || SEVERITY_ORDER.indexOf(b[0]) - SEVERITY_ORDER.indexOf(a[0]))[0]![0]
      flaws.set(key, { severity, quotes: v.quotes })
    }
    out.set(itemId, { kind: 'majority', flaws })
  }
  return out
}

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean))
}

/** Word overlap of two quotes: shared words over all words (Jaccard). */
export function quoteOverlap(a: string, b: string): number {
  const x = words(a)
  const y = words(b)
  if (x.size === 0 && y.size === 0) return 1
  let shared = 0
  for (const w of x) if (y.has(w)) shared++
  return shared / (x.size + y.size - shared)
}

class Tally {
  expert = 0
  found = 0
  judge = 0
  matched = 0
  cell(key: string, level: number): FlawMatchCell {
    const share = (k: number, n: number) => (n === 0 ? { value: null, ci: null } : (() => {
      const w = wilsonInterval(k, n, level)
      return { value: k / n, ci: w.value === null ? null : ([w.lower, w.upper] as [number, number]) }
    })())
    const recall = share(this.found, this.expert)
    const precision = share(this.matched, this.judge)
    return { key, n_expert: this.expert, n_expert_found: this.found, n_judge: this.judge, n_judge_matched: this.matched, recall: recall.value, recall_ci: recall.ci, precision: precision.value, precision_ci: precision.ci }
  }
}

function tally(map: Map<string, Tally>, key: string): Tally {
  let t = map.get(key)
  if (!t) map.set(key, (t = new Tally()))
  return t
}

function rowFor(source: ReportSourceInput, reference: Map<number, { kind: string; flaws: Map<string, RefFlaw> }>, level: number): FlawMatchRow | null {
  const answers = firstAnswer(source)
  const overall = new Tally()
  const byType = new Map<string, Tally>()
  const bySeverity = new Map<string, Tally>()
  const kinds = new Set<string>()
  let items = 0
  let overlapSum = 0
  let overlapN = 0
  let unparseable = 0
  for (const [itemId, call] of answers) {
    const ref = reference.get(itemId)
    if (!ref) continue
    items++
    kinds.add(ref.kind)
    unparseable += call.unparseableFlaws ?? 0
    const judged = new Map<string, FlawRecord[]>()
    for (const f of call.flaws!) judged.set(keyOf(f), [...(judged.get(keyOf(f)) ?? []), f])
    for (const [key, r] of ref.flaws) {
      const hit = judged.has(key)
      const type = key.split('\u0000')[1]!
      for (const t of [overall, tally(byType, type), tally(bySeverity, r.severity)]) {
        t.expert++
        if (hit) t.found++
      }
      if (hit) {
        // The best agreement of any of the judge's quotes with any expert quote for this flaw.
        overlapSum += Math.max(...judged.get(key)!.flatMap((f) => r.quotes.map((q) => quoteOverlap(f.evidence, q))))
        overlapN++
      }
    }
    for (const [key, fs] of judged) {
      const hit = ref.flaws.has(key)
      const severity = fs.map((f) => f.severity).reduce(worse)
      for (const t of [overall, tally(byType, key.split('\u0000')[1]!), tally(bySeverity, severity)]) {
        t.judge++
        if (hit) t.matched++
      }
    }
  }
  if (items === 0) return null
  return {
    source: source.id,
    reference: [...kinds].sort().join(' + '),
    n_items: items,
    overall: overall.cell('all', level),
    by_type: [...byType].sort((a, b) => a[0].localeCompare(b[0])).map(([k, t]) => t.cell(k, level)),
    by_severity: SEVERITY_ORDER.filter((s) => bySeverity.has(s)).map((s) => bySeverity.get(s)!.cell(s, level)),
    quote_overlap: overlapN ? overlapSum / overlapN : null,
    n_quote_pairs: overlapN,
    n_unparseable_flaws: unparseable
  }
}

/** The section for a flaw-audit report with at least one judge and one reference audit; null otherwise. */
export function flawMatchingSection(input: ReportInput, level: number): FlawMatchingSection | null {
  if (input.instrument.id !== 'flaw-audit') return null
  const reference = referenceFlaws(input)
  if (reference.size === 0) return null
  const rows = input.sources.filter((s) => JUDGE_KINDS.has(s.kind)).map((s) => rowFor(s, reference, level)).filter((r): r is FlawMatchRow => r !== null)
  return rows.length ? { match_rule: FLAW_MATCH_RULE, n_reference_items: reference.size, rows } : null
}
