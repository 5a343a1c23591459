import { describe, expect, it } from 'vitest'
import type { ReportInput, ReportSourceInput, SourceCall } from '../../../src/shared/report/input'
import { probesSection, type ProbeFacts } from '../../../src/shared/report/probes'
import { probesSectionSchema } from '../../../src/shared/report/probes-schema'

const OPTIONS = { level: 0.95, resamples: 2000, seed: 7 }

/** Probe i: family f<i div 2>, probe on side a for even i. */
function facts(n: number, kind: string, rule: ProbeFacts['rule'], status: (i: number) => ProbeFacts['status'] = () => 'verified', first = 1): ProbeFacts[] {
  return Array.from({ length: n }, (_, k) => ({
    itemId: first + k,
    family: `f${Math.floor(k / 2)}`,
    kind,
    probeSide: k % 2 === 0 ? ('a' as const) : ('b' as const),
    rule,
    status: status(k),
    flawType: rule === 'original_better' ? 'unsound_method' : null
  }))
}

function call(itemId: number, winner: 'a' | 'b', order = 0): SourceCall {
  return { itemId, trial: 0, order, status: 'ok', observations: [{ unit: `p${itemId}`, values: { winner } }] }
}

function source(id: string, kind: ReportSourceInput['kind'], calls: SourceCall[]): ReportSourceInput {
  return { id, kind, name: id, detail: {}, calls }
}

function input(instrument: string, itemIds: number[], sources: ReportSourceInput[]): ReportInput {
  return {
    project: { name: 'p', id: 'p' },
    instrument: { id: instrument, title: instrument, itemKind: 'proposal-pair', versions: [1], fields: [] },
    split: 'all',
    items: itemIds.map((id) => ({ id, externalId: `p${id}`, set: 'probes', split: 'none', exposures: [] })),
    sources,
    flawAudits: []
  }
}

describe('the Probes report section', () => {
  it('counts verified, rejected and unchecked probes and only scores verified ones', () => {
    const probes = facts(6, 'formula-error', 'original_better', (i) => (i < 4 ? 'verified' : i === 4 ? 'rejected' : 'unchecked'))
    // The judge prefers the original (the side that is not the probe) on every probe, including the unverified ones.
    const judge = source('run:1', 'judge_run', probes.map((p) => call(p.itemId, p.probeSide === 'a' ? 'b' : 'a')))
    const s = probesSection(input('pairwise-preference', probes.map((p) => p.itemId), [judge]), probes, OPTIONS)!
    expect(probesSectionSchema.parse(s)).toEqual(s)
    expect([s.n_probes, s.n_verified, s.n_rejected, s.n_unchecked]).toEqual([6, 4, 1, 1])
    expect(s.detection).toHaveLength(1)
    expect(s.detection[0]).toMatchObject({ source: 'run:1', role: 'judge', kind: 'formula-error', n_probes: 4, n_families: 2, detected: 4, rate: 1 })
    expect(s.detection[0]!.wilson.high).toBe(1)
    expect(s.detection[0]!.wilson.low).toBeCloseTo(0.5101, 3)
  })

  it('puts people beside judges, pooled as well, and resamples families', () => {
    const probes = facts(8, 'formula-error', 'original_better')
    const original = (p: ProbeFacts) => (p.probeSide === 'a' ? 'b' : 'a')
    const judge = source('run:2', 'judge_run', probes.map((p, i) => call(p.itemId, i < 2 ? original(p) : p.probeSide)))
    const ann1 = source('ann:1', 'annotator', probes.map((p) => call(p.itemId, original(p))))
    const ann2 = source('ann:2', 'annotator', probes.map((p, i) => call(p.itemId, i % 4 === 0 ? p.probeSide : original(p))))
    const s = probesSection(input('pairwise-preference', probes.map((p) => p.itemId), [judge, ann1, ann2]), probes, OPTIONS)!
    const rate = (id: string) => s.detection.find((r) => r.source === id)!.rate
    expect(rate('run:2')).toBe(0.25)
    expect(rate('ann:1')).toBe(1)
    expect(rate('ann:2')).toBe(0.75)
    // Pooled: the mean over annotators per probe; an even split between them is a tie, as for the human majority.
    expect(rate('all-annotators')).toBe(1)
    expect(s.detection.find((r) => r.source === 'all-annotators')!.n_tied).toBe(2)
    const judgeRow = s.detection.find((r) => r.source === 'run:2')!
    expect(judgeRow.n_families).toBe(4)
    expect(judgeRow.bootstrap.low).not.toBeNull()
    expect(judgeRow.bootstrap.low!).toBeLessThanOrEqual(0.25)
    expect(judgeRow.bootstrap.high!).toBeGreaterThanOrEqual(0.25)
  })

  it('reports the framing preference, not detection, for inflated framing; split orders are ties', () => {
    const probes = facts(4, 'inflated-framing', 'no_preference')
    const calls = [
      call(1, 'a'), // probe on a wins
      call(2, 'b'), // probe on b wins
      call(3, 'b'), // original wins
      call(4, 'a', 0),
      call(4, 'b', 1) // the two orders disagree: a tie
    ]
    const s = probesSection(input('pairwise-preference', [1, 2, 3, 4], [source('run:3', 'judge_run', calls)]), probes, OPTIONS)!
    expect(s.detection).toEqual([])
    expect(s.rules).toEqual({ 'inflated-framing': 'no_preference' })
    expect(s.framing_preference[0]).toMatchObject({ n_probes: 3, n_tied: 1, probe_wins: 2 })
    expect(s.framing_preference[0]!.rate).toBeCloseTo(2 / 3)
  })

  it('in flaw audits, counts a flaw listed on the probe side and whether it has the planted type', () => {
    const probes = facts(2, 'formula-error', 'original_better').map((p) => ({ ...p, evidence: 'E = mc^3' }))
    const calls: SourceCall[] = [
      { itemId: 1, trial: 0, order: 0, status: 'ok', observations: [], flaws: [{ side: 'a', type: 'unsound_method', severity: 'major', evidence: 'mc^3' }] },
      { itemId: 2, trial: 0, order: 0, status: 'ok', observations: [], flaws: [{ side: 'b', type: 'other', severity: 'minor', evidence: 'y' }] }
    ]
    const s = probesSection(input('flaw-audit', [1, 2], [source('run:4', 'judge_run', calls)]), probes, OPTIONS)!
    expect(s.detection[0]).toMatchObject({ detected: 2, type_matched: 1, location_matched: 1, rate: 1, rule: 'a flaw is listed on the probe side' })
  })

  it('is absent where no probe is in scope, or for other instruments', () => {
    const probes = facts(2, 'formula-error', 'original_better')
    expect(probesSection(input('pairwise-preference', [99], []), probes, OPTIONS)).toBeNull()
    expect(probesSection(input('hypothesis-match', [1, 2], []), probes, OPTIONS)).toBeNull()
  })
})
