import { describe, expect, it } from 'vitest'
import { getInstrument, type BlindingContext, type InstrumentId } from '../../../src/shared/instruments'
import {
  fsOlympiad,
  fsResearch,
  HIDDEN_MARKERS,
  HYPOTHESIS_IDS,
  hypothesisSet,
  hypothesisSetWithTask,
  idea,
  ideaPair,
  markerValues,
  preprintPair,
  proposalPair,
  rediscoveryTask,
  referencePair,
  researchQuestion
} from './fixtures'

// Several viewers, so that both display orders of a pair and several orders of a set are searched.
const VIEWERS = ['alice', 'bob', 'carol', 'dave', 'erin', '']
const ctx: BlindingContext = { seed: 'project-seed', viewer: 'alice', externalId: 'item-1' }
const contexts: BlindingContext[] = VIEWERS.map((viewer) => ({ ...ctx, viewer }))

type MarkerKey = keyof typeof HIDDEN_MARKERS

interface BlindCase {
  id: InstrumentId
  payload: Record<string, unknown>
  hidden: MarkerKey[]
  /** Strings the view must show, so an empty view cannot pass. */
  shown: string[]
}

const PAIR_HIDDEN: MarkerKey[] = [
  'title',
  'h1',
  'generator',
  'company',
  'citations',
  'labelSource',
  'probe',
  'cohort',
  'cutoff',
  'pairId',
  'extra'
]
// Hypothesis ids are hidden from the view but are the display mapping itself (label -> id), which stays in main.
const SET_HIDDEN: MarkerKey[] = ['generator', 'company', 'domainCategory', 'setId', 'taskId', 'extra', 'scheme']

const CASES: BlindCase[] = [
  { id: 'pairwise-preference', payload: proposalPair, hidden: PAIR_HIDDEN, shown: ['KV cache compression', 'Layer-wise eviction'] },
  { id: 'flaw-audit', payload: proposalPair, hidden: PAIR_HIDDEN, shown: ['Sensitivity-aware budgets', 'attention entropy'] },
  {
    id: 'hypothesis-match',
    payload: hypothesisSetWithTask,
    // The judge sees the reference (finding, key points) but not the second reference or the subject.
    hidden: [...SET_HIDDEN, 'subject', 'referenceB'],
    shown: [HIDDEN_MARKERS.finding, HIDDEN_MARKERS.keyPoint, 'Statement 3. Mechanism: mechanism 3 Prediction: prediction 3']
  },
  {
    id: 'forecast-detailed',
    payload: hypothesisSetWithTask,
    // Forecasters never see any reference.
    hidden: [...SET_HIDDEN, 'subject', 'referenceB', 'finding', 'keyPoint'],
    shown: ['Muscle stem cells', 'Which circulating factor', 'Statement 1.']
  },
  {
    id: 'forecast-short',
    payload: hypothesisSetWithTask,
    hidden: [...SET_HIDDEN, 'subject', 'referenceB', 'finding', 'keyPoint'],
    shown: ['Muscle stem cells', 'Statement 5.']
  },
  {
    id: 'leak-audit',
    payload: rediscoveryTask,
    hidden: ['taskId', 'subject', 'referenceB'],
    shown: [HIDDEN_MARKERS.finding, HIDDEN_MARKERS.keyPoint, 'Muscle stem cells']
  },
  { id: 'cue-rating', payload: researchQuestion, hidden: ['extra'], shown: ['SOD1', 'Mitochondrial ROS', 'denervation'] },
  { id: 'fs-research-grade', payload: fsResearch, hidden: ['responder', 'taskGroup'], shown: ['Derives the rate law.', 'first order'] },
  { id: 'fs-olympiad-grade', payload: fsOlympiad, hidden: ['responder', 'taskGroup'], shown: ['6.7', 'T = 6.69 s'] },
  { id: 'idea-review', payload: idea, hidden: ['ideaModel', 'criticModel', 'priorScore'], shown: ['engineered phages'] },
  { id: 'idea-similarity', payload: ideaPair, hidden: ['generator'], shown: ['Idea one', 'Idea two', 'autophagy'] },
  { id: 'preprint-same-study', payload: preprintPair, hidden: ['extra', 'labelSource'], shown: ['Paper abstract.', 'Doe J'] },
  {
    id: 'reference-comparison',
    payload: referencePair,
    hidden: ['taskId', 'abstract', 'generator', 'company'],
    shown: ['Factor X restores Notch signalling.', 'satellite cells']
  }
]

describe('blinding', () => {
  it('covers every instrument, and both display orders of a pair', () => {
    expect(new Set(CASES.map((c) => c.id)).size).toBe(13)
    const swaps = contexts.map((x) => getInstrument('pairwise-preference').blind(proposalPair as never, x).display.swapped)
    expect(new Set(swaps)).toEqual(new Set([true, false]))
  })

  for (const c of CASES) {
    it(`${c.id}: no hidden marker reaches the view or the display mapping`, () => {
      for (const viewerCtx of contexts) {
        const blind = getInstrument(c.id).blind(c.payload as never, viewerCtx)
        const text = JSON.stringify(blind)
        for (const marker of markerValues(c.hidden)) expect(text).not.toContain(marker)
        for (const shown of c.shown) expect(JSON.stringify(blind.view)).toContain(shown)
      }
    })
  }

  for (const id of ['hypothesis-match', 'forecast-detailed', 'forecast-short'] as const) {
    it(`${id}: the view shows labels only; the display mapping holds the hypothesis ids`, () => {
      const blind = getInstrument(id).blind(hypothesisSetWithTask as never, ctx)
      expect(JSON.stringify(blind.view)).not.toContain(HIDDEN_MARKERS.hypothesisId)
      const order = blind.display.order as string[]
      expect([...order].sort()).toEqual([...HYPOTHESIS_IDS].sort())
    })
  }

  it('proposal pairs: origin and the reference label are not in the view, under any key', () => {
    for (const viewerCtx of contexts) {
      const view = getInstrument('pairwise-preference').blind(proposalPair as never, viewerCtx).view
      const keys: string[] = []
      JSON.stringify(view, (k, v) => (keys.push(k), v))
      for (const hiddenKey of ['origin', 'label', 'citations', 'generator', 'company', 'title', 'pair_id', 'probe', 'cohort']) {
        expect(keys).not.toContain(hiddenKey)
      }
      expect(JSON.stringify(view)).not.toMatch(/"(human|ai|a_better|b_much_better)"/)
    }
  })

  it('instruments that need the task refuse a set without it, rather than show less', () => {
    expect(() => getInstrument('hypothesis-match').blind(hypothesisSet as never, ctx)).toThrow(/payload\.task/)
    expect(() => getInstrument('forecast-detailed').blind(hypothesisSet as never, ctx)).toThrow(/payload\.task/)
    // A single claim is asked on its own, without background or question.
    const view = getInstrument('forecast-short').blind(hypothesisSet as never, ctx).view
    expect(Object.keys(view)).toEqual(['hypotheses'])
  })
})
