import { describe, expect, it } from 'vitest'
import { cueRating, CUE_RUBRIC, type CueRatingJudgement } from '../../../src/shared/instruments/cue-rating'
import { fsOlympiadGrade } from '../../../src/shared/instruments/fs-olympiad-grade'
import { fsResearchGrade } from '../../../src/shared/instruments/fs-research-grade'
import { ideaReview } from '../../../src/shared/instruments/idea-review'
import { ideaSimilarity } from '../../../src/shared/instruments/idea-similarity'
import { leakAudit } from '../../../src/shared/instruments/leak-audit'
import { preprintSameStudy } from '../../../src/shared/instruments/preprint-same-study'
import { referenceComparison } from '../../../src/shared/instruments/reference-comparison'
import { instrumentsFor } from '../../../src/shared/instruments'
import {
  fsOlympiad,
  fsResearch,
  idea,
  ideaPair,
  preprintPair,
  rediscoveryTask,
  referencePair,
  researchQuestion
} from './fixtures'

const ok = (schema: { safeParse(x: unknown): { success: boolean } }, x: unknown) => schema.safeParse(x).success

describe('leak-audit', () => {
  it('parses booleans with evidence and refuses other shapes', () => {
    expect(ok(leakAudit.judgement, { leak: true, evidence: 'young blood' })).toBe(true)
    expect(ok(leakAudit.judgement, { leak: false, evidence: '' })).toBe(true)
    expect(ok(leakAudit.judgement, { leak: 'no', evidence: '' })).toBe(false)
    expect(ok(leakAudit.judgement, { leak: true })).toBe(false)
  })

  it('accepts evidence quoted from the background or the question, in fragments too', () => {
    expect(leakAudit.check({ leak: true, evidence: 'Systemic factors in young blood' }, rediscoveryTask)).toEqual([])
    expect(leakAudit.check({ leak: true, evidence: 'circulating factor restores' }, rediscoveryTask)).toEqual([])
    expect(
      leakAudit.check({ leak: true, evidence: '"young blood" ... "circulating factor"' }, rediscoveryTask)
    ).toEqual([])
    expect(leakAudit.check({ leak: false, evidence: '' }, rediscoveryTask)).toEqual([])
  })

  it('refuses evidence that is not in the task text, and a leak without evidence', () => {
    expect(leakAudit.check({ leak: true, evidence: 'Notch signalling' }, rediscoveryTask)).toEqual([
      { path: 'evidence', message: 'The evidence must be words of the background or the question.' }
    ])
    // The finding itself is not background or question.
    expect(leakAudit.check({ leak: true, evidence: rediscoveryTask.finding }, rediscoveryTask)).toHaveLength(1)
    expect(leakAudit.check({ leak: true, evidence: ' ' }, rediscoveryTask)).toHaveLength(1)
  })

  it('observes the leak per task', () => {
    expect(leakAudit.observe({ leak: true, evidence: 'young blood' }, rediscoveryTask)).toEqual([
      { unit: rediscoveryTask.task_id, values: { leak: true } }
    ])
  })
})

describe('cue-rating', () => {
  const valid: CueRatingJudgement = {
    score: 2,
    input_score: 2,
    alternative_score: 1,
    cue_excerpt: 'loss of SOD1 activity in motor neurons',
    rationale: 'Names the node and direction.',
    hidden: 'the mitochondrial source of ROS'
  }

  it('parses 0/1/2 scores and refuses others', () => {
    expect(ok(cueRating.judgement, valid)).toBe(true)
    expect(ok(cueRating.judgement, { ...valid, score: 3 })).toBe(false)
    expect(ok(cueRating.judgement, { ...valid, input_score: -1 })).toBe(false)
    expect(ok(cueRating.judgement, { ...valid, alternative_score: 1.5 })).toBe(false)
    expect(ok(cueRating.judgement, { ...valid, hidden: undefined })).toBe(false)
  })

  it('requires the excerpt to be exact words of the question, or empty for score 0', () => {
    expect(cueRating.check(valid, researchQuestion)).toEqual([])
    expect(cueRating.check({ ...valid, cue_excerpt: 'SOD1 loss in motor neurons' }, researchQuestion)).toEqual([
      { path: 'cue_excerpt', message: 'The cue excerpt must be exact words of the question.' }
    ])
    // Words of the background are not words of the question.
    expect(cueRating.check({ ...valid, cue_excerpt: 'Muscle stem cells' }, researchQuestion)).toHaveLength(1)
    expect(cueRating.check({ ...valid, score: 0, cue_excerpt: '' }, researchQuestion)).toEqual([])
    expect(cueRating.check({ ...valid, score: 1, cue_excerpt: '' }, researchQuestion)).toHaveLength(1)
  })

  it('shows the rubric verbatim, Markdown included', () => {
    expect(cueRating.form.rubric?.startsWith(CUE_RUBRIC)).toBe(true)
    expect(CUE_RUBRIC).toContain('- **1, explanatory class:** specifies a broad source, process, compartment')
    expect(CUE_RUBRIC.split('\n')).toHaveLength(5)
  })

  it('observes the three scores per question', () => {
    expect(cueRating.observe(valid, researchQuestion)).toEqual([
      { unit: 'q-017', values: { score: 2, input_score: 2, alternative_score: 1 } }
    ])
  })
})

describe('fs-research-grade', () => {
  it('applies to research-track problems only', () => {
    expect(instrumentsFor('fs-problem', fsResearch).map((i) => i.id)).toEqual(['fs-research-grade'])
    expect(instrumentsFor('fs-problem', fsOlympiad).map((i) => i.id)).toEqual(['fs-olympiad-grade'])
    expect(fsResearchGrade.check({ total: 5 }, fsOlympiad)).toHaveLength(1)
  })

  it('parses per-item points with their total, or a total alone (a model verdict line)', () => {
    expect(ok(fsResearchGrade.judgement, { points: [4, 3, 1], total: 8 })).toBe(true)
    expect(ok(fsResearchGrade.judgement, { total: 2.5 })).toBe(true)
    expect(ok(fsResearchGrade.judgement, { total: 10.5 })).toBe(false)
    expect(ok(fsResearchGrade.judgement, { total: -1 })).toBe(false)
    expect(ok(fsResearchGrade.judgement, { points: [-1, 3, 1], total: 3 })).toBe(false)
  })

  it('checks each item against its maximum and the total against the sum', () => {
    expect(fsResearchGrade.check({ points: [4, 3.5, 2.5], total: 10 }, fsResearch)).toEqual([])
    expect(fsResearchGrade.check({ points: [0.1, 0.2, 0.4], total: 0.7 }, fsResearch)).toEqual([])
    expect(fsResearchGrade.check({ points: [5, 3, 1], total: 9 }, fsResearch)).toEqual([
      { path: 'points.0', message: 'At most 4 points for this item.' }
    ])
    expect(fsResearchGrade.check({ points: [4, 3, 1], total: 7 }, fsResearch)).toEqual([
      { path: 'total', message: 'The total must be the sum of the item points (8).' }
    ])
    expect(fsResearchGrade.check({ points: [4, 3], total: 7 }, fsResearch).map((i) => i.path)).toEqual(['points'])
  })

  it('refuses a rubric total over 10', () => {
    const generous = { ...fsResearch, rubric: [{ points: 6, item: 'a' }, { points: 6, item: 'b' }] }
    const issues = fsResearchGrade.check({ points: [6, 6], total: 10 }, generous)
    expect(issues).toContainEqual({ path: 'points', message: 'The points add up to 12, over 10.' })
    expect(ok(fsResearchGrade.judgement, { points: [6, 6], total: 12 })).toBe(false)
  })

  it('reads a model verdict line as the total', () => {
    const fromLine = (v: unknown) => fsResearchGrade.judgement.safeParse(fsResearchGrade.fromModelAnswer?.(v))
    expect(fromLine('2.5').data).toEqual({ total: 2.5 })
    expect(fromLine(8).data).toEqual({ total: 8 })
    expect(fromLine('12').success).toBe(false)
    expect(fromLine('eight').success).toBe(false)
  })

  it('derives passing at 7 points and shows the rubric with each maximum', () => {
    expect(fsResearchGrade.observe({ total: 7 }, fsResearch)).toEqual([
      { unit: 'response', values: { total: 7, passed: true } }
    ])
    expect(fsResearchGrade.observe({ total: 6.9 }, fsResearch)[0]?.values.passed).toBe(false)
    const view = fsResearchGrade.blind(fsResearch, { seed: 's', viewer: 'v', externalId: 'x' }).view
    expect(view.rubric).toEqual([
      { points: 4, item: 'Derives the rate law.' },
      { points: 3.5, item: 'Identifies the rate-limiting step.' },
      { points: 2.5, item: 'Estimates the activation energy.' }
    ])
    const rubricWidget = fsResearchGrade.form.widgets.find((w) => w.kind === 'rubric')
    expect(rubricWidget).toMatchObject({ maxTotal: 10, passAt: 7 })
  })
})

describe('fs-olympiad-grade', () => {
  it('parses correct/incorrect, shows the reference answer and the response, observes', () => {
    expect(ok(fsOlympiadGrade.judgement, { correct: true })).toBe(true)
    expect(ok(fsOlympiadGrade.judgement, { correct: 'CORRECT' })).toBe(false)
    const view = fsOlympiadGrade.blind(fsOlympiad, { seed: 's', viewer: 'v', externalId: 'x' }).view
    expect(view).toMatchObject({ reference_answer: '6.7', response: 'T = 6.69 s' })
    expect(fsOlympiadGrade.observe({ correct: false }, fsOlympiad)).toEqual([
      { unit: 'response', values: { correct: false } }
    ])
    expect(fsOlympiadGrade.check({ correct: true }, fsResearch)).toHaveLength(1)
  })

  it('reads a model verdict line', () => {
    expect(fsOlympiadGrade.fromModelAnswer?.('CORRECT')).toEqual({ correct: true })
    expect(fsOlympiadGrade.fromModelAnswer?.('incorrect')).toEqual({ correct: false })
    expect(ok(fsOlympiadGrade.judgement, fsOlympiadGrade.fromModelAnswer?.('PARTIALLY'))).toBe(false)
  })
})

describe('idea-review', () => {
  it('parses integer scores 1..10 and refuses others', () => {
    const valid = { originality: 7, feasibility: 4, clarity: 10, analysis: 'Plausible but known.' }
    expect(ok(ideaReview.judgement, valid)).toBe(true)
    expect(ok(ideaReview.judgement, { ...valid, originality: 0 })).toBe(false)
    expect(ok(ideaReview.judgement, { ...valid, clarity: 11 })).toBe(false)
    expect(ok(ideaReview.judgement, { ...valid, feasibility: 6.5 })).toBe(false)
    expect(ideaReview.observe(valid, idea)).toEqual([
      { unit: 'idea', values: { originality: 7, feasibility: 4, clarity: 10 } }
    ])
  })
})

describe('idea-similarity', () => {
  it('parses one letter A-D (any case) and scores it A=10, B=7, C=4, D=1', () => {
    expect(ideaSimilarity.judgement.parse({ letter: 'c' })).toEqual({ letter: 'C' })
    expect(ok(ideaSimilarity.judgement, { letter: 'E' })).toBe(false)
    expect(ok(ideaSimilarity.judgement, { letter: 'AB' })).toBe(false)
    const scores = (['A', 'B', 'C', 'D'] as const).map((letter) => ideaSimilarity.observe({ letter }, ideaPair)[0]?.values.score)
    expect(scores).toEqual([10, 7, 4, 1])
    expect(ideaSimilarity.observe({ letter: 'B' }, ideaPair)).toEqual([{ unit: 'pair', values: { letter: 'B', score: 7 } }])
    expect(ideaSimilarity.judgement.parse(ideaSimilarity.fromModelAnswer?.('A'))).toEqual({ letter: 'A' })
  })
})

describe('preprint-same-study', () => {
  it('parses the verdict with a confidence in 0..1 and observes P(same study)', () => {
    const valid = { same_study: false, confidence: 0.8, reason: 'Different cohort.' }
    expect(ok(preprintSameStudy.judgement, valid)).toBe(true)
    expect(ok(preprintSameStudy.judgement, { ...valid, confidence: 1.2 })).toBe(false)
    expect(ok(preprintSameStudy.judgement, { ...valid, confidence: null })).toBe(false)
    const values = preprintSameStudy.observe(valid, preprintPair)[0]?.values
    expect(values?.same_study).toBe(false)
    expect(values?.confidence).toBe(0.8)
    expect(values?.p_same_study).toBeCloseTo(0.2, 12)
  })
})

describe('reference-comparison', () => {
  it('parses the five booleans and the differences, observes the booleans', () => {
    const valid = {
      same_core_finding: true,
      same_mechanism_or_target: true,
      same_direction_of_effect: true,
      b_adds_elements: false,
      b_omits_elements: true,
      differences: 'B omits Notch.'
    }
    expect(ok(referenceComparison.judgement, valid)).toBe(true)
    expect(ok(referenceComparison.judgement, { ...valid, b_adds_elements: undefined })).toBe(false)
    expect(ok(referenceComparison.judgement, { ...valid, same_core_finding: 1 })).toBe(false)
    const { differences: _text, ...flags } = valid
    expect(referenceComparison.observe(valid, referencePair)).toEqual([{ unit: 'pair', values: flags }])
  })
})
