import { clusterBootstrap, undefinedBecause, wilsonIntervalOfShare, type Estimate } from '../stats'
import type { ReportInput, ReportSourceInput, SourceCall } from './input'
import { betterStatus, type ItemStatus } from './resolve'
import type { ProbeDetectionRow, ProbesSection } from './probes-schema'

// The "Probes" section: how often each judge, and each person, notices a planted flaw on original-vs-probe pairs,
// per probe kind, with a Wilson interval over probes and a cluster-bootstrap interval over probe families (the
// probes of one original are not independent evidence). Only probes that passed their check are counted.

/** What the report needs of a probe item (gathered in main from the project's probes and their checks). */
export interface ProbeFacts {
  itemId: number
  family: string
  kind: string
  probeSide: 'a' | 'b'
  rule: 'original_better' | 'no_preference'
  status: 'verified' | 'rejected' | 'unchecked'
  flawType: string | null
  /** The changed text of the probe where the flaw was planted (an exact quote of it), when known. */
  evidence?: string | null
}

export interface ProbeSectionOptions {
  level: number
  resamples: number
  seed: number
}

const JUDGE_SOURCE_KINDS = new Set(['judge_run', 'model_import', 'panel', 'calibrated'])

/** Per call: 1 when it detects, 0 when it does not, null when it says nothing usable about the probe. */
type CallScore = (call: SourceCall, probe: ProbeFacts) => number | null

function winnerOf(call: SourceCall): 'a' | 'b' | null {
  for (const o of call.observations) {
    const w = o.values.winner
    if (w === 'a' || w === 'b') return w
  }
  return null
}

const pairwiseDetects: CallScore = (call, probe) => {
  const w = winnerOf(call)
  return w === null ? null : w !== probe.probeSide ? 1 : 0
}

const probeWins: CallScore = (call, probe) => {
  const w = winnerOf(call)
  return w === null ? null : w === probe.probeSide ? 1 : 0
}

const flawListed: CallScore = (call, probe) => (call.flaws ? (call.flaws.some((f) => f.side === probe.probeSide) ? 1 : 0) : null)
const typeListed: CallScore = (call, probe) =>
  call.flaws ? (call.flaws.some((f) => f.side === probe.probeSide && f.type === probe.flawType) ? 1 : 0) : null

/** A flaw on the probe side whose quote and the planted change overlap (either contains the other). */
const locationListed: CallScore = (call, probe) => {
  const planted = probe.evidence?.trim()
  if (!call.flaws || !planted) return null
  return call.flaws.some((f) => f.side === probe.probeSide && f.evidence.trim() !== '' && (planted.includes(f.evidence.trim()) || f.evidence.includes(planted))) ? 1 : 0
}

interface ItemScore {
  family: string
  /** The item's share over its usable calls (display orders, trials): 0, 1, or between for split answers. */
  share: number
  secondary: number | null
}

/**
 * A source's per-item scores on the given probes: calls of one item combined by their mean. A probe's status is its
 * item's, as the field tables read it (an answer before an abstention before an unreadable answer before a failure):
 * one read as unparseable there is judged here too, and detects nothing.
 */
function itemScores(calls: readonly SourceCall[], probes: ReadonlyMap<number, ProbeFacts>, score: CallScore, secondary: CallScore | null) {
  const byItem = new Map<number, { s: number[]; t: number[] }>()
  const status = new Map<number, ItemStatus>()
  for (const call of calls) {
    const probe = probes.get(call.itemId)
    if (!probe) continue
    status.set(call.itemId, betterStatus(status.get(call.itemId), call.status === 'ok' ? 'answered' : call.status))
    if (call.status !== 'ok') continue
    const v = score(call, probe)
    if (v === null) continue
    const entry = byItem.get(call.itemId) ?? { s: [], t: [] }
    entry.s.push(v)
    const t = secondary ? secondary(call, probe) : null
    if (t !== null) entry.t.push(t)
    byItem.set(call.itemId, entry)
  }
  for (const [itemId, st] of status) if (st === 'unparseable' && !byItem.has(itemId)) byItem.set(itemId, { s: [0], t: secondary ? [0] : [] })
  const out = new Map<number, ItemScore>()
  for (const [itemId, e] of byItem) {
    out.set(itemId, {
      family: probes.get(itemId)!.family,
      share: mean(e.s),
      secondary: e.t.length ? mean(e.t) : null
    })
  }
  return out
}

function mean(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length
}

interface Rate {
  n: number
  families: number
  total: number
  secondary: number | null
  rate: number | null
  wilson: { low: number | null; high: number | null; reason: string | null }
  bootstrap: { low: number | null; high: number | null; reason: string | null }
}

/** Why a rate has no interval when no probe is left to score: none answered, or every answer tied between orders. */
function emptyReason(tied: number): string {
  return tied > 0 ? `every answered probe (${tied}) was tied between its display orders or answers: no probe left to score` : 'no probes answered'
}

function rateOf(scores: readonly ItemScore[], o: ProbeSectionOptions, withSecondary: boolean, tied = 0): Rate {
  const n = scores.length
  const total = scores.reduce((s, x) => s + x.share, 0)
  const families = new Map<string, ItemScore[]>()
  for (const s of scores) families.set(s.family, [...(families.get(s.family) ?? []), s])
  const w = n ? wilsonIntervalOfShare(total / n, n, o.level) : null
  const statistic = (resample: ReadonlyArray<ItemScore[]>): Estimate => {
    const flat = resample.flat()
    return flat.length ? { value: flat.reduce((s, x) => s + x.share, 0) / flat.length } : undefinedBecause('no probes')
  }
  const b = n ? clusterBootstrap([...families.values()], statistic, { resamples: o.resamples, seed: o.seed, level: o.level }) : null
  return {
    n,
    families: families.size,
    total: round(total),
    secondary: withSecondary ? round(scores.reduce((s, x) => s + (x.secondary ?? 0), 0)) : null,
    rate: n ? total / n : null,
    wilson: w && w.value !== null ? { low: w.lower, high: w.upper, reason: null } : { low: null, high: null, reason: emptyReason(tied) },
    bootstrap: b
      ? { low: b.lower, high: b.upper, reason: b.intervalReason ?? (families.size < 2 ? 'one probe family: the interval says nothing' : null) }
      : { low: null, high: null, reason: emptyReason(tied) }
  }
}

function round(x: number): number {
  return Math.round(x * 1e9) / 1e9
}

/** The sources a probe table lists: each judge, each annotator, and all annotators pooled (mean per probe). */
function sourcesOf(input: ReportInput): Array<{ id: string; role: 'judge' | 'human'; calls: SourceCall[] } | { id: string; role: 'human'; pooled: ReportSourceInput[] }> {
  const judges = input.sources.filter((s) => JUDGE_SOURCE_KINDS.has(s.kind)).map((s) => ({ id: s.id, role: 'judge' as const, calls: s.calls }))
  const people = input.sources.filter((s) => s.kind === 'annotator')
  const humans = people.map((s) => ({ id: s.id, role: 'human' as const, calls: s.calls }))
  return [...judges, ...humans, ...(people.length > 1 ? [{ id: 'all-annotators', role: 'human' as const, pooled: people }] : [])]
}

/** Scores of one table source: an annotator's own, or the pooled mean over annotators per probe. */
function scoresFor(
  source: ReturnType<typeof sourcesOf>[number],
  probes: ReadonlyMap<number, ProbeFacts>,
  score: CallScore,
  secondary: CallScore | null
): Map<number, ItemScore> {
  if ('calls' in source) return itemScores(source.calls, probes, score, secondary)
  const per = source.pooled.map((s) => itemScores(s.calls, probes, score, secondary))
  const out = new Map<number, ItemScore>()
  for (const itemId of new Set(per.flatMap((m) => [...m.keys()]))) {
    const xs = per.map((m) => m.get(itemId)).filter((x): x is ItemScore => x !== undefined)
    const sec = xs.map((x) => x.secondary).filter((x): x is number => x !== null)
    out.set(itemId, { family: xs[0]!.family, share: mean(xs.map((x) => x.share)), secondary: sec.length ? mean(sec) : null })
  }
  return out
}

/** Verified probes of a kind the source was asked (it has a call on them, of any status). */
function askedProbes(source: ReturnType<typeof sourcesOf>[number], probes: ReadonlyMap<number, ProbeFacts>): number {
  const calls = 'calls' in source ? source.calls : source.pooled.flatMap((s) => s.calls)
  return new Set(calls.filter((c) => probes.has(c.itemId)).map((c) => c.itemId)).size
}

/** An item whose answers split evenly (both display orders disagreeing, or people split) is a tie, left out and counted. */
function splitTies(scores: Map<number, ItemScore>): { kept: ItemScore[]; tied: number } {
  const kept: ItemScore[] = []
  let tied = 0
  for (const s of scores.values()) {
    if (s.share === 0.5) tied++
    else kept.push(s)
  }
  return { kept, tied }
}

export function probesSection(input: ReportInput, facts: readonly ProbeFacts[], o: ProbeSectionOptions): ProbesSection | null {
  const inScope = new Set(input.items.map((i) => i.id))
  const scoped = facts.filter((f) => inScope.has(f.itemId))
  const mode = input.instrument.id === 'pairwise-preference' ? 'pairwise' : input.instrument.id === 'flaw-audit' ? 'flaw-audit' : null
  if (!mode || scoped.length === 0) return null
  const verified = new Map(scoped.filter((f) => f.status === 'verified').map((f) => [f.itemId, f]))
  const kinds = [...new Set(scoped.map((f) => f.kind))].sort()
  const rules: Record<string, string> = {}
  for (const f of scoped) rules[f.kind] = f.rule
  const section: ProbesSection = {
    n_probes: scoped.length,
    n_verified: verified.size,
    n_rejected: scoped.filter((f) => f.status === 'rejected').length,
    n_unchecked: scoped.filter((f) => f.status === 'unchecked').length,
    by_kind: kinds.map((kind) => ({
      kind,
      verified: scoped.filter((f) => f.kind === kind && f.status === 'verified').length,
      rejected: scoped.filter((f) => f.kind === kind && f.status === 'rejected').length,
      unchecked: scoped.filter((f) => f.kind === kind && f.status === 'unchecked').length
    })),
    rules,
    detection: [],
    framing_preference: [],
    level: o.level,
    bootstrap: { resamples: o.resamples, seed: o.seed, unit: 'probe family' }
  }
  for (const source of sourcesOf(input)) {
    for (const kind of kinds) {
      const ofKind = new Map([...verified].filter(([, f]) => f.kind === kind))
      if (!ofKind.size) continue
      const noPreference = rules[kind] === 'no_preference'
      // Probes asked but never answered usably (failed, pending, abstained, unreadable): counted, never scored.
      const asked = askedProbes(source, ofKind)
      if (mode === 'pairwise' && noPreference) {
        const { kept, tied } = splitTies(scoresFor(source, ofKind, probeWins, null))
        if (!asked) continue
        const r = rateOf(kept, o, false, tied)
        section.framing_preference.push({
          source: source.id,
          role: source.role,
          kind,
          n_probes: r.n,
          n_families: r.families,
          n_tied: tied,
          n_unanswered: asked - kept.length - tied,
          probe_wins: r.total,
          rate: r.rate,
          wilson: r.wilson,
          bootstrap: r.bootstrap
        })
        continue
      }
      // A flaw audit of a kind that plants no flaw has nothing to detect.
      if (mode === 'flaw-audit' && noPreference) continue
      const score = mode === 'pairwise' ? pairwiseDetects : flawListed
      const { kept, tied } = splitTies(scoresFor(source, ofKind, score, mode === 'flaw-audit' ? typeListed : null))
      if (!asked) continue
      const r = rateOf(kept, o, mode === 'flaw-audit', tied)
      // The same probes again, scored on whether a listed flaw's quote overlaps the planted change.
      const located = mode === 'flaw-audit' && [...ofKind.values()].some((f) => f.evidence)
        ? round([...scoresFor(source, ofKind, score, locationListed).values()].filter((x) => x.share !== 0.5).reduce((n, x) => n + (x.secondary ?? 0), 0))
        : null
      const row: ProbeDetectionRow = {
        source: source.id,
        role: source.role,
        kind,
        rule: mode === 'pairwise' ? 'the original is preferred' : 'a flaw is listed on the probe side',
        n_probes: r.n,
        n_families: r.families,
        n_tied: tied,
        n_unanswered: asked - kept.length - tied,
        detected: r.total,
        rate: r.rate,
        wilson: r.wilson,
        bootstrap: r.bootstrap,
        type_matched: r.secondary,
        location_matched: located
      }
      section.detection.push(row)
    }
  }
  return section
}
