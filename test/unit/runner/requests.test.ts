import { describe, expect, it } from 'vitest'
import { builtInTemplates, claimId, requestUnits, SkipItem } from '../../../src/main/runner'
import { getInstrument } from '../../../src/shared/instruments'
import { getTemplate, renderRequest } from '../../../src/shared/templates'

const t = (id: string) => getTemplate(builtInTemplates(), id)
const PAIR_ID = 'hva_v1_glm5_1_claude_code__l1_009_06_03_w1__2509.09754'

const pair = {
  pair_id: PAIR_ID,
  topic: 'audits',
  a: { markdown: '# Title A\n\nBody of A.', origin: 'human', citations: 40 },
  b: { markdown: '# Title B\n\nBody of B.', origin: 'ai', generator: 'model-x' },
  label: 'a_better'
}

const task = { task_id: 't1', background: 'BG text.', question: 'Why?', finding: 'The finding.', key_points: ['k1', 'k2'] }
const set = {
  set_id: 's1',
  task_id: 't1',
  generator: 'model-x',
  hypotheses: ['h1', 'h2', 'h3'].map((id) => ({ id, statement: `S-${id}.`, mechanism: `M-${id}.`, prediction: `P-${id}.` })),
  task
}

describe('pairwise requests', () => {
  it('show the pair in IdeaEval’s published order (seed 42 swaps this pair), titles removed', () => {
    const [unit] = requestUnits(getInstrument('pairwise-preference'), t('pairwise-ranker'), pair, { seed: '42', viewer: '', externalId: PAIR_ID }, { bothOrders: false })
    expect(unit!.display).toEqual({ swapped: true, rule: 'ideaeval-hash' })
    expect(unit!.values).toMatchObject({ proposal_a: 'Body of B.', proposal_b: 'Body of A.' })
    const text = renderRequest(t('pairwise-ranker'), { proposal_a: unit!.values.proposal_a!, proposal_b: unit!.values.proposal_b! }).user
    expect(text).toContain('=== PROPOSAL A ===\nBody of B.\n=== END OF PROPOSAL A ===')
    expect(text).not.toContain('Title')
    expect(text).not.toContain('human')
  })

  it('with both orders add the mirror of the seeded order', () => {
    const units = requestUnits(getInstrument('pairwise-preference'), t('pairwise-ranker'), pair, { seed: '42', viewer: '', externalId: PAIR_ID }, { bothOrders: true })
    expect(units.map((u) => [u.orderIndex, u.display.swapped, u.values.proposal_a])).toEqual([
      [0, true, 'Body of B.'],
      [1, false, 'Body of A.']
    ])
  })

  it('need the literature review when the template asks for one', () => {
    const ask = () => requestUnits(getInstrument('pairwise-preference'), t('pairwise-ranker-lr'), pair, { seed: '1', viewer: '', externalId: PAIR_ID }, { bothOrders: false })
    expect(ask).toThrow(SkipItem)
    const [unit] = requestUnits(getInstrument('pairwise-preference'), t('pairwise-ranker-lr'), { ...pair, literature_review: 'Prior work.' }, { seed: '1', viewer: '', externalId: PAIR_ID }, { bothOrders: false })
    expect(unit!.values.literature_review).toBe('Prior work.')
  })

  it('refuse both orders for an instrument without sides', () => {
    expect(() => requestUnits(getInstrument('hypothesis-match'), t('match-judge'), set, { seed: '1', viewer: '', externalId: 's1' }, { bothOrders: true })).toThrow('hypothesis-match has no second order to ask')
  })
})

describe('hypothesis requests', () => {
  it('label the set P1..Pn in the seeded order the display records, with the task and reference', () => {
    const [unit] = requestUnits(getInstrument('hypothesis-match'), t('match-judge'), set, { seed: '7', viewer: '', externalId: 's1' }, { bothOrders: false })
    const order = unit!.display.order as string[]
    expect([...order].sort()).toEqual(['h1', 'h2', 'h3'])
    expect(unit!.values.hypotheses).toBe(order.map((id, i) => `[P${i + 1}] S-${id}. Mechanism: M-${id}. Prediction: P-${id}.`).join('\n\n'))
    expect(unit!.values).toMatchObject({ background: 'BG text.', question: 'Why?', reference_finding: 'The finding.', key_points_list: '- k1\n- k2' })
  })

  it('skip a set whose task is not attached', () => {
    const { task: _task, ...bare } = set
    expect(() => requestUnits(getInstrument('hypothesis-match'), t('match-judge'), bare, { seed: '7', viewer: '', externalId: 's1' }, { bothOrders: false })).toThrow(SkipItem)
  })

  it('ask claims one by one under anonymous H-ids fixed by the seed', () => {
    const units = requestUnits(getInstrument('forecast-short'), t('forecast-short-claim'), set, { seed: '7', viewer: '', externalId: 's1' }, { bothOrders: false })
    expect(units.map((u) => u.orderIndex)).toEqual([0, 1, 2])
    expect(units[1]!.display).toEqual({ order: ['h2'], claimId: claimId('7', 's1', 'h2') })
    expect(units[1]!.values).toEqual({ claim_id: claimId('7', 's1', 'h2'), claim: 'S-h2. Mechanism: M-h2. Prediction: P-h2.' })
    expect(claimId('7', 's1', 'h2')).toMatch(/^H\d{12}$/)
    expect(claimId('8', 's1', 'h2')).not.toBe(claimId('7', 's1', 'h2'))
    const user = renderRequest(t('forecast-short-claim'), units[1]!.values).user
    expect(user).toContain(`[${claimId('7', 's1', 'h2')}] S-h2. Mechanism: M-h2. Prediction: P-h2.`)
    expect(user).not.toContain('BG text.')
  })
})

describe('grading requests', () => {
  it('put the rubric text and the response into the research grader', () => {
    const item = { track: 'research', problem: 'Prob.', answer: 'Points: 10, Item: all', rubric: [{ points: 10, item: 'all' }], response: 'My answer.' }
    const [unit] = requestUnits(getInstrument('fs-research-grade'), t('fs-research-grade'), item, { seed: '1', viewer: '', externalId: 'x' }, { bothOrders: false })
    expect(unit!.values).toEqual({ problem: 'Prob.', rubric: 'Points: 10, Item: all', answer: 'My answer.' })
  })

  it('skip an item without a response to grade', () => {
    const item = { track: 'olympiad', problem: 'Prob.', answer: '42' }
    expect(() => requestUnits(getInstrument('fs-olympiad-grade'), t('fs-olympiad-grade'), item, { seed: '1', viewer: '', externalId: 'x' }, { bothOrders: false })).toThrow('no response to grade')
  })

  it('join authors and key points the way the source examples do', () => {
    const pp = { paper: { title: 'T', authors: ['A. One', 'B. Two'], abstract: 'Abs.' }, preprint: { title: 'T2', authors: 'C. Three', abstract: 'Abs2.' } }
    const [u1] = requestUnits(getInstrument('preprint-same-study'), t('preprint-check'), pp, { seed: '1', viewer: '', externalId: 'x' }, { bothOrders: false })
    expect(u1!.values).toMatchObject({ paper_authors: 'A. One, B. Two', preprint_authors: 'C. Three' })
    const rp = { reference_a: { finding: 'FA', key_points: ['a', 'b'] }, reference_b: { finding: 'FB', key_points: ['c'] } }
    const [u2] = requestUnits(getInstrument('reference-comparison'), t('reference-comparison'), rp, { seed: '1', viewer: '', externalId: 'x' }, { bothOrders: false })
    expect(u2!.values).toEqual({ finding_a: 'FA', key_points_a: 'a; b', finding_b: 'FB', key_points_b: 'c' })
  })
})
