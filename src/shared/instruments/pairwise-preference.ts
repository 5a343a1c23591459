import { z } from 'zod'
import {
  CANONICAL_PAIR_LABELS,
  ORIGIN_PAIR_LABELS,
  originLabelFromCanonical,
  type CanonicalPairLabel
} from '../items/labels'
import type { ProposalPair } from '../items/kinds'
import { caseInsensitiveEnum } from './common'
import { blindProposalPair, swapLabel, swapSide } from './proposal-view'
import type { Instrument, JudgementIssue, Observation } from './types'

/**
 * Which of two research proposals is better (IdeaEval). Four-level forced choice, no ties; a person may instead
 * abstain with a reason, which is recorded and reported but never counted as a choice. A model judge also names the
 * fatal flaws it found (`fatal_flaws`), so its flaw detection can be compared with human flaw audits.
 *
 * Display order: IdeaEval's rule `sha256("<seed>:<key>")`, keyed by `<viewer>:<pair_id>` (see `blindProposalPair`).
 * In the display `a` is the left/first proposal; verdicts and flaw sides are mapped back to canonical order before
 * the answer is stored.
 */

export const PAIRWISE_CHOICES = [...CANONICAL_PAIR_LABELS, 'abstain'] as const

const fatalFlawSchema = z.lazy(() => z.object({
  proposal: caseInsensitiveEnum(['a', 'b']),
  description: z.string()
}))

export const pairwisePreferenceJudgement = z.lazy(() => z
  .object({
    verdict: caseInsensitiveEnum(PAIRWISE_CHOICES),
    abstain_reason: z.string().optional(),
    /** Checks, worked examples and comparison (a model's analysis, a person's notes). */
    analysis: z.string().optional(),
    /** Fatal flaws named by the judge; absent when the judge was not asked for them. */
    fatal_flaws: z.array(fatalFlawSchema).optional()
  })
  .superRefine((j, ctx) => {
    if (j.verdict === 'abstain' && !j.abstain_reason?.trim()) {
      ctx.addIssue({ code: 'custom', path: ['abstain_reason'], message: 'An abstention needs a reason.' })
    }
  }))
export type PairwisePreferenceJudgement = z.infer<typeof pairwisePreferenceJudgement>

function mapSides(j: PairwisePreferenceJudgement, display: Record<string, unknown>): PairwisePreferenceJudgement {
  if (display.swapped !== true) return j
  return {
    ...j,
    verdict: j.verdict === 'abstain' ? j.verdict : swapLabel(j.verdict),
    ...(j.fatal_flaws ? { fatal_flaws: j.fatal_flaws.map((f) => ({ ...f, proposal: swapSide(f.proposal) })) } : {})
  }
}

export const pairwisePreference: Instrument<'proposal-pair', PairwisePreferenceJudgement> = {
  id: 'pairwise-preference',
  version: 1,
  title: 'Which proposal is better',
  description:
    'Read two research proposals on one research direction and decide which is more worth carrying out, and by how ' +
    'much. No ties; abstain with a reason when you cannot judge.',
  itemKind: 'proposal-pair',
  judgement: pairwisePreferenceJudgement,
  fields: [
    { name: 'verdict', label: 'Verdict', level: 'ordinal', categories: CANONICAL_PAIR_LABELS },
    { name: 'winner', label: 'Better proposal', level: 'nominal', categories: ['a', 'b'] },
    { name: 'origin_verdict', label: 'Verdict by origin', level: 'ordinal', categories: ORIGIN_PAIR_LABELS },
    { name: 'abstained', label: 'Abstained', level: 'nominal', categories: [false, true] },
    // Per side (units `<pair_id>:a`, `<pair_id>:b`), only where the judge was asked for fatal flaws.
    { name: 'has_fatal', label: 'Judge names a fatal flaw', level: 'nominal', categories: [false, true] }
  ],
  form: {
    widgets: [
      {
        kind: 'choice',
        field: 'verdict',
        label: 'Which proposal is better?',
        // Digits in screen order, left to right; x abstains.
        options: [
          { value: 'a_much_better', label: 'A much better', key: '1' },
          { value: 'a_better', label: 'A better', key: '2' },
          { value: 'b_better', label: 'B better', key: '3' },
          { value: 'b_much_better', label: 'B much better', key: '4' },
          { value: 'abstain', label: 'Abstain', key: 'x' }
        ]
      },
      {
        kind: 'text',
        field: 'abstain_reason',
        label: 'Why you abstain',
        multiline: true,
        requiredWhen: { field: 'verdict', in: ['abstain'], says: 'required when you abstain' }
      },
      { kind: 'text', field: 'analysis', label: 'Notes', multiline: true, optional: true }
    ],
    empty: () => ({ verdict: null, analysis: '' })
  },
  templates: ['pairwise-ranker', 'pairwise-ranker-lr'],
  blind: blindProposalPair,
  toCanonical: mapSides,
  toDisplay: mapSides,
  check(): JudgementIssue[] {
    return []
  },
  observe(j, payload): Observation[] {
    if (j.verdict === 'abstain') {
      return [{ unit: payload.pair_id, values: { verdict: null, winner: null, origin_verdict: null, abstained: true } }]
    }
    const observations: Observation[] = [
      {
        unit: payload.pair_id,
        values: {
          verdict: j.verdict,
          winner: j.verdict.startsWith('a_') ? 'a' : 'b',
          origin_verdict: originVerdict(j.verdict, payload),
          abstained: false
        }
      }
    ]
    if (j.fatal_flaws) {
      const flaws = j.fatal_flaws
      for (const side of ['a', 'b'] as const) {
        observations.push({
          unit: `${payload.pair_id}:${side}`,
          values: { has_fatal: flaws.some((f) => f.proposal === side) }
        })
      }
    }
    return observations
  },
  isAbstention: (j) => j.verdict === 'abstain'
}

/** The verdict in human/AI terms, defined only when one side is known human and the other known AI. */
function originVerdict(verdict: CanonicalPairLabel, pair: ProposalPair): string | null {
  const a = pair.a.origin
  const b = pair.b.origin
  if (!a || !b || a === b) return null
  return originLabelFromCanonical(verdict, a)
}
