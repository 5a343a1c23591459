import { describe, expect, it } from 'vitest'
import { flawAudit, FLAW_TAXONOMY, type FlawAuditJudgement } from '../../../src/shared/instruments/flaw-audit'
import {
  pairwisePreference,
  type PairwisePreferenceJudgement
} from '../../../src/shared/instruments/pairwise-preference'
import type { BlindingContext } from '../../../src/shared/instruments'
import { proposalPair } from './fixtures'

// IdeaEval's published test vector: seed 42 and this pair id give v = 0.4733822441953193 < 0.5, so A and B swap.
const PUBLISHED_PAIR_ID = 'hva_v1_glm5_1_claude_code__l1_009_06_03_w1__2509.09754'
const publishedPair = { ...proposalPair, pair_id: PUBLISHED_PAIR_ID }

function ctx(viewer: string, seed = '42'): BlindingContext {
  return { seed, viewer, externalId: 'item-1' }
}

/** A viewer whose order is swapped (or not) under the seed, found by asking the instrument itself. */
function viewerWith(swapped: boolean): string {
  for (let i = 0; i < 200; i++) {
    const viewer = `annotator-${i}`
    if (pairwisePreference.blind(proposalPair, ctx(viewer)).display.swapped === swapped) return viewer
  }
  throw new Error('no such viewer')
}

describe('pairwise-preference', () => {
  const parse = (j: unknown) => pairwisePreference.judgement.safeParse(j)

  it('accepts the four verdicts and an abstention with a reason, refuses ties and bare abstentions', () => {
    for (const verdict of ['a_much_better', 'a_better', 'b_better', 'b_much_better']) {
      expect(parse({ verdict }).success).toBe(true)
    }
    expect(parse({ verdict: 'abstain', abstain_reason: 'outside my field' }).success).toBe(true)
    expect(parse({ verdict: 'abstain' }).success).toBe(false)
    expect(parse({ verdict: 'abstain', abstain_reason: '  ' }).success).toBe(false)
    expect(parse({ verdict: 'tie' }).success).toBe(false)
    expect(parse({}).success).toBe(false)
  })

  it('reads a model answer in the ranker template format (upper-case sides)', () => {
    const answer = {
      analysis: 'Worked example: (5,2) gives 2.8, (6,1) gives 2.5.',
      verdict: 'B_much_better',
      fatal_flaws: [{ proposal: 'A', description: 'The claimed optimum fails on a two-head example.' }]
    }
    const parsed = pairwisePreference.judgement.parse(answer)
    expect(parsed.verdict).toBe('b_much_better')
    expect(parsed.fatal_flaws?.[0]?.proposal).toBe('a')
  })

  it('reproduces the published display order for the empty viewer (seed 42)', () => {
    const blind = pairwisePreference.blind(publishedPair, ctx(''))
    expect(blind.display).toEqual({ swapped: true, rule: 'ideaeval-hash' })
  })

  it('a swapped view really shows B on the left, without its first H1', () => {
    const swapped = pairwisePreference.blind(proposalPair, ctx(viewerWith(true)))
    const view = swapped.view as { a: { markdown: string }; b: { markdown: string } }
    expect(view.a.markdown).toContain('Layer-wise eviction')
    expect(view.b.markdown).toContain('Sensitivity-aware budgets')
    expect(view.a.markdown).not.toMatch(/^# /m)
    expect(view.a.markdown.startsWith('## Introduction')).toBe(true)

    const straight = pairwisePreference.blind(proposalPair, ctx(viewerWith(false)))
    expect((straight.view as typeof view).a.markdown).toContain('Sensitivity-aware budgets')
  })

  it('the display order is stable for one viewer and varies across viewers', () => {
    const once = pairwisePreference.blind(proposalPair, ctx('alice'))
    expect(pairwisePreference.blind(proposalPair, ctx('alice'))).toEqual(once)
    const orders = new Set(
      Array.from({ length: 32 }, (_, i) => pairwisePreference.blind(proposalPair, ctx(`v${i}`)).display.swapped)
    )
    expect(orders).toEqual(new Set([true, false]))
  })

  it('maps a verdict given on a swapped screen back to canonical order, and round-trips', () => {
    const shown: PairwisePreferenceJudgement = {
      verdict: 'a_much_better',
      fatal_flaws: [{ proposal: 'b', description: 'x' }]
    }
    const canonical = pairwisePreference.toCanonical(shown, { swapped: true })
    expect(canonical.verdict).toBe('b_much_better')
    expect(canonical.fatal_flaws).toEqual([{ proposal: 'a', description: 'x' }])
    expect(pairwisePreference.toDisplay(canonical, { swapped: true })).toEqual(shown)
    expect(pairwisePreference.toCanonical(shown, { swapped: false })).toEqual(shown)

    for (const verdict of ['a_much_better', 'a_better', 'b_better', 'b_much_better', 'abstain'] as const) {
      const j: PairwisePreferenceJudgement = { verdict, abstain_reason: 'r' }
      for (const swapped of [true, false]) {
        expect(pairwisePreference.toCanonical(pairwisePreference.toDisplay(j, { swapped }), { swapped })).toEqual(j)
      }
    }
    expect(pairwisePreference.toCanonical({ verdict: 'a_better' }, { swapped: true }).verdict).toBe('b_better')
  })

  it('observes verdict, winner and the verdict by origin (A is the AI proposal)', () => {
    expect(pairwisePreference.observe({ verdict: 'b_much_better' }, proposalPair)).toEqual([
      {
        unit: proposalPair.pair_id,
        values: { verdict: 'b_much_better', winner: 'b', origin_verdict: 'human_much_better', abstained: false }
      }
    ])
    expect(pairwisePreference.observe({ verdict: 'a_better' }, proposalPair)[0]?.values.origin_verdict).toBe('ai_better')
  })

  it('leaves the origin verdict undefined unless one side is human and the other AI', () => {
    const unknownOrigin = { ...proposalPair, b: { ...proposalPair.b, origin: null } }
    const bothAi = { ...proposalPair, b: { ...proposalPair.b, origin: 'ai' as const } }
    expect(pairwisePreference.observe({ verdict: 'a_better' }, unknownOrigin)[0]?.values.origin_verdict).toBeNull()
    expect(pairwisePreference.observe({ verdict: 'a_better' }, bothAi)[0]?.values.origin_verdict).toBeNull()
  })

  it('records an abstention without counting it as a choice', () => {
    const j: PairwisePreferenceJudgement = { verdict: 'abstain', abstain_reason: 'cannot check the formula' }
    expect(pairwisePreference.isAbstention?.(j)).toBe(true)
    expect(pairwisePreference.isAbstention?.({ verdict: 'a_better' })).toBe(false)
    expect(pairwisePreference.observe(j, proposalPair)).toEqual([
      { unit: proposalPair.pair_id, values: { verdict: null, winner: null, origin_verdict: null, abstained: true } }
    ])
  })

  it("observes the judge's fatal flaws per side when it was asked for them", () => {
    const obs = pairwisePreference.observe(
      { verdict: 'b_better', fatal_flaws: [{ proposal: 'a', description: 'wrong optimum' }] },
      proposalPair
    )
    expect(obs.slice(1)).toEqual([
      { unit: `${proposalPair.pair_id}:a`, values: { has_fatal: true } },
      { unit: `${proposalPair.pair_id}:b`, values: { has_fatal: false } }
    ])
    expect(pairwisePreference.observe({ verdict: 'b_better' }, proposalPair)).toHaveLength(1)
  })
})

describe('flaw-audit', () => {
  const quoteA = 'which is optimal for the\nlinear objective'
  const valid: FlawAuditJudgement = {
    flaws: [
      {
        side: 'a',
        type: 'unsound_method',
        severity: 'fatal',
        evidence: quoteA,
        note: 'Linear objective: a proportional rule is not optimal.',
        check: {
          code: 'print(4*0.5+1*0.8, 4*0.4+1*0.9)',
          output: '2.8 2.5',
          ran_at: '2025-09-12T10:00:00Z'
        }
      },
      { side: 'b', type: 'flawed_design', severity: 'minor', evidence: 'attention entropy', note: '' }
    ]
  }

  it('exports taxonomy version 1 with the six flaw types', () => {
    expect(FLAW_TAXONOMY).toEqual({
      version: 1,
      types: ['covered_by_prior_work', 'hallucinated_content', 'unsound_method', 'flawed_design', 'infeasible', 'other']
    })
  })

  it('parses a valid audit and refuses unknown types, severities and empty evidence', () => {
    expect(flawAudit.judgement.safeParse(valid).success).toBe(true)
    expect(flawAudit.judgement.safeParse({ flaws: [] }).success).toBe(true)
    const flaw = valid.flaws[0]!
    for (const bad of [
      { ...flaw, type: 'boring' },
      { ...flaw, severity: 'catastrophic' },
      { ...flaw, evidence: '   ' },
      { ...flaw, side: 'c' },
      { ...flaw, check: { code: 'x', output: 'y', ran_at: 'yesterday' } }
    ]) {
      expect(flawAudit.judgement.safeParse({ flaws: [bad] }).success).toBe(false)
    }
  })

  it('accepts evidence quoted from the proposal as shown (line breaks re-wrapped)', () => {
    expect(flawAudit.check(valid, proposalPair)).toEqual([])
    const rewrapped = { flaws: [{ ...valid.flaws[0]!, evidence: 'which is optimal for the linear objective' }] }
    expect(flawAudit.check(rewrapped, proposalPair)).toEqual([])
  })

  it('refuses evidence that is not in that side of the pair', () => {
    const wrongSide = { flaws: [{ ...valid.flaws[1]!, side: 'a' as const }] }
    // Canonical sides are hidden from annotators: the canonical check names none.
    expect(flawAudit.check(wrongSide, proposalPair)).toEqual([
      { path: 'flaws.0.evidence', message: 'The evidence is not an exact quote of the proposal the flaw names.' }
    ])
    const invented = { flaws: [{ ...valid.flaws[0]!, evidence: 'which is provably optimal' }] }
    expect(flawAudit.check(invented, proposalPair)).toHaveLength(1)
    // The title (first H1) is not shown, so it cannot be quoted.
    const title = { flaws: [{ ...valid.flaws[0]!, evidence: proposalPair.a.markdown.split('\n')[0]!.slice(2) }] }
    expect(flawAudit.check(title, proposalPair)).toHaveLength(1)
  })

  it('checks evidence against the pair as shown, naming the side as displayed, and holds its offsets to the quote', () => {
    const shown = flawAudit.blind(proposalPair, { seed: 's', viewer: 'v', externalId: 'x', swapped: true })
    const right = (shown.view.b as { markdown: string }).markdown
    const quote = valid.flaws[0]!.evidence
    const start = right.indexOf(quote)
    expect(start).toBeGreaterThanOrEqual(0)
    const onRight = { flaws: [{ ...valid.flaws[0]!, side: 'b' as const, evidence_at: { start, end: start + quote.length } }] }
    expect(flawAudit.checkShown!(onRight, shown.view)).toEqual([])
    expect(flawAudit.checkShown!({ flaws: [{ ...onRight.flaws[0]!, side: 'a' as const, evidence_at: undefined }] }, shown.view)).toEqual([
      { path: 'flaws.0.evidence', message: 'The evidence is not an exact quote of the left proposal (A).' }
    ])
    const moved = { flaws: [{ ...onRight.flaws[0]!, evidence_at: { start: start + 1, end: start + 1 + quote.length } }] }
    expect(flawAudit.checkShown!(moved, shown.view)[0]?.message).toMatch(/position does not hold these words in the right proposal \(B\)/)
  })

  it('stores a selection with surrounding spaces as its words, the position moved in with them', () => {
    const shown = flawAudit.blind(proposalPair, { seed: 's', viewer: 'v', externalId: 'x', swapped: true })
    const right = (shown.view.b as { markdown: string }).markdown
    const words = 'which is optimal for the'
    const at = right.indexOf(words)
    expect(at).toBeGreaterThan(0)
    // A selection that took the space before the words and the one after them, as browsers often do.
    const selected = right.slice(at - 1, at + words.length + 1)
    expect(selected).toMatch(/^\s.*\s$/s)
    const parsed = flawAudit.judgement.parse({ flaws: [{ ...valid.flaws[0]!, side: 'b', evidence: selected, evidence_at: { start: at - 1, end: at + words.length + 1 } }] })
    expect(parsed.flaws[0]).toMatchObject({ evidence: words, evidence_at: { start: at, end: at + words.length } })
    expect(flawAudit.checkShown!(parsed, shown.view)).toEqual([])
    // Typed evidence without a position is trimmed alone.
    expect(flawAudit.judgement.parse({ flaws: [{ ...valid.flaws[0]!, evidence: ` ${words}\n` }] }).flaws[0]).toMatchObject({ evidence: words })
  })

  it('maps sides back to canonical order and round-trips', () => {
    const canonical = flawAudit.toCanonical(valid, { swapped: true })
    expect(canonical.flaws.map((f) => f.side)).toEqual(['b', 'a'])
    expect(flawAudit.toDisplay(canonical, { swapped: true })).toEqual(valid)
    expect(flawAudit.toCanonical(valid, { swapped: false })).toEqual(valid)
  })

  it('observes, per side, whether a fatal flaw was found and the worst severity', () => {
    expect(flawAudit.observe(valid, proposalPair)).toEqual([
      { unit: `${proposalPair.pair_id}:a`, values: { has_fatal: true, max_severity: 'fatal' } },
      { unit: `${proposalPair.pair_id}:b`, values: { has_fatal: false, max_severity: 'minor' } }
    ])
    expect(flawAudit.observe({ flaws: [] }, proposalPair).map((o) => o.values)).toEqual([
      { has_fatal: false, max_severity: 'none' },
      { has_fatal: false, max_severity: 'none' }
    ])
  })

  it('shows the pair in the same order as the preference instrument', () => {
    for (const viewer of ['alice', 'bob', 'carol', 'dan']) {
      expect(flawAudit.blind(proposalPair, ctx(viewer))).toEqual(pairwisePreference.blind(proposalPair, ctx(viewer)))
    }
  })
})
