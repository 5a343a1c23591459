import { describe, expect, it } from 'vitest'
import { offlineCheckCoverage, viewIssues } from '../../../src/main/annotation/view-checks'
import { getInstrument, INSTRUMENT_IDS, type InstrumentId } from '../../../src/shared/instruments'
import {
  BACKGROUND,
  fsResearch,
  hypothesisSetWithTask,
  proposalPair,
  QUESTION,
  rediscoveryTask,
  researchQuestion
} from '../instruments/fixtures'

// A packet checks an answer (display terms) against the view it was given on; the project checks the same answer,
// mapped to canonical order, against the real item. They must find the same problems at the same places.

interface Case {
  instrument: InstrumentId
  payload: Record<string, unknown>
  /** Answers in display terms, built from the view, with how many issues the item check finds in each. */
  answers: (view: Record<string, unknown>) => Array<{ answer: unknown; issues: number }>
}

const labels = (view: Record<string, unknown>) => (view.hypotheses as Array<{ id: string }>).map((h) => h.id)
const leftQuote = (view: Record<string, unknown>) => (view.a as { markdown: string }).markdown.split('\n').find((l) => l.startsWith('Each layer') || l.startsWith('We allocate'))!
const test = { intervention: 'i', measurement: 'm', controls: 'c', supports_if: 's', refutes_if: 'r' }
const detailed = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  p_experimental_support: 0.4,
  recommend_for_testing: false,
  support_from_background: [],
  assumptions: [],
  contradictions: [],
  reason: 'r',
  test,
  ...extra
})

const CASES: Case[] = [
  {
    instrument: 'flaw-audit',
    payload: proposalPair,
    answers: (view) => [
      { answer: { flaws: [{ side: 'a', type: 'other', severity: 'minor', evidence: leftQuote(view) }] }, issues: 0 },
      { answer: { flaws: [{ side: 'b', type: 'other', severity: 'minor', evidence: leftQuote(view) }] }, issues: 1 },
      { answer: { flaws: [{ side: 'a', type: 'other', severity: 'fatal', evidence: 'not in either proposal' }] }, issues: 1 }
    ]
  },
  {
    instrument: 'cue-rating',
    payload: researchQuestion,
    answers: () => {
      const base = { input_score: 1, alternative_score: 1, rationale: 'r', hidden: 'h' }
      return [
        { answer: { ...base, score: 1, cue_excerpt: 'loss of SOD1 activity' }, issues: 0 },
        { answer: { ...base, score: 1, cue_excerpt: 'words not in the question' }, issues: 1 },
        { answer: { ...base, score: 2, cue_excerpt: '' }, issues: 1 },
        { answer: { ...base, score: 0, cue_excerpt: '' }, issues: 0 }
      ]
    }
  },
  {
    instrument: 'leak-audit',
    payload: rediscoveryTask,
    answers: () => [
      { answer: { leak: true, evidence: QUESTION.slice(0, 30) }, issues: 0 },
      { answer: { leak: true, evidence: 'not in the task at all' }, issues: 1 },
      { answer: { leak: true, evidence: '' }, issues: 1 },
      { answer: { leak: false, evidence: '' }, issues: 0 }
    ]
  },
  {
    instrument: 'hypothesis-match',
    payload: hypothesisSetWithTask,
    answers: (view) => {
      const score = (id: string) => ({ id, match: 3, compatible: true, plausibility: 4, reason: 'r' })
      return [
        { answer: { scores: labels(view).map(score) }, issues: 0 },
        { answer: { scores: labels(view).slice(1).map(score) }, issues: 1 },
        { answer: { scores: [...labels(view).slice(1), 'P9'].map(score) }, issues: 2 }
      ]
    }
  },
  {
    instrument: 'forecast-short',
    payload: hypothesisSetWithTask,
    answers: (view) => [
      { answer: { forecasts: labels(view).map((id) => ({ id, confirmed: true })) }, issues: 0 },
      { answer: { forecasts: labels(view).slice(0, 3).map((id) => ({ id, confirmed: false })) }, issues: 2 }
    ]
  },
  {
    instrument: 'forecast-detailed',
    payload: hypothesisSetWithTask,
    answers: (view) => {
      const ids = labels(view)
      return [
        { answer: { forecasts: ids.map((id) => detailed(id, { support_from_background: [BACKGROUND.slice(0, 40)] })) }, issues: 0 },
        { answer: { forecasts: ids.map((id, i) => detailed(id, i === 1 ? { support_from_background: ['not a quote of the background'] } : {})) }, issues: 1 },
        { answer: { forecasts: ids.slice(1).map((id) => detailed(id)) }, issues: 1 }
      ]
    }
  },
  {
    instrument: 'fs-research-grade',
    payload: fsResearch,
    answers: () => [
      { answer: { points: [4, 3, 1], total: 8 }, issues: 0 },
      { answer: { points: [5, 3, 1], total: 9 }, issues: 1 },
      { answer: { points: [4, 3, 1], total: 7 }, issues: 1 },
      { answer: { points: [4, 3], total: 7 }, issues: 1 }
    ]
  }
]

describe('offline checks in a packet', () => {
  for (const c of CASES) {
    it(`${c.instrument}: the view check finds what the item check finds, in both display orders`, () => {
      const instrument = getInstrument(c.instrument)
      const orders = new Set<string>()
      for (const viewer of ['annotator:Ada', 'annotator:Ben', 'annotator:Cy', 'annotator:Di']) {
        const { view, display } = instrument.blind(c.payload as never, { seed: 'packet-checks', viewer, externalId: 'x' })
        orders.add(JSON.stringify(display))
        for (const { answer, issues } of c.answers(view)) {
          const shown = instrument.judgement.parse(answer)
          const onItem = instrument.check(instrument.toCanonical(shown, display), c.payload as never)
          expect(onItem.length, JSON.stringify(answer)).toBe(issues)
          expect(viewIssues(instrument, shown, view).map((i) => i.path)).toEqual(onItem.map((i) => i.path))
        }
      }
      // Where the display reorders, the viewers saw different orders, so the mapping was exercised.
      if (![...orders].every((o) => o === '{}')) expect(orders.size).toBeGreaterThan(1)
    })
  }

  it('says which instruments are fully, partly or not checked offline', () => {
    const coverage = Object.fromEntries(INSTRUMENT_IDS.map((id) => [id, offlineCheckCoverage(id)]))
    expect(coverage).toEqual({
      'pairwise-preference': 'full',
      'flaw-audit': 'view',
      'hypothesis-match': 'view',
      'leak-audit': 'view',
      'cue-rating': 'view',
      'forecast-detailed': 'view',
      'forecast-short': 'view',
      'fs-research-grade': 'view',
      'fs-olympiad-grade': 'merge-only',
      'idea-review': 'full',
      'idea-similarity': 'full',
      'preprint-same-study': 'full',
      'reference-comparison': 'full',
      'probe-check': 'full'
    })
    // Every instrument the table calls "view" is covered by a case above.
    expect(CASES.map((c) => c.instrument).sort()).toEqual(INSTRUMENT_IDS.filter((id) => coverage[id] === 'view').sort())
  })
})
