import { describe, expect, it } from 'vitest'
import { builtInTemplates, furtherMovesCloser, generatedSet, nextStep, readStepAnswer, type ChainSettings, type StepOutcome, type StepPlan } from '../../../src/main/runner'
import { getTemplate, renderRequest } from '../../../src/shared/templates'

const task = { taskId: 'demo-task-02', background: 'BG.', question: 'Q?' }
const granted = { taskId: 'demo-task-01', background: 'BG.', question: 'Q?' }
const settings = (scheme: ChainSettings['scheme'], tokenBudget: number | null = null): ChainSettings => ({ scheme, templates: builtInTemplates(), tokenBudget })
const hyp = (n: number) => ({ statement: `S${n}.`, mechanism: `M${n}.`, prediction: `P${n}.`, domain_category: 'x' })

/** Plays a scheme through with fixed answers; returns the plans and the outcomes. */
function play(s: ChainSettings, t = task, tokens = 100, selected: string[] = ['C3']): { plans: StepPlan[]; done: StepOutcome[] } {
  const plans: StepPlan[] = []
  const done: StepOutcome[] = []
  for (let step = nextStep(s, t, done); step; step = nextStep(s, t, done)) {
    plans.push(step)
    const hypotheses = step.format === 'json' && step.kind !== 'selection' ? [hyp(2 * step.index), hyp(2 * step.index + 1)] : null
    done.push({ index: step.index, kind: step.kind, stage: step.stage, text: `answer ${step.index}`, hypotheses, selected: step.kind === 'selection' ? selected : null, outputTokens: tokens })
    if (plans.length > 40) throw new Error('runaway')
  }
  return { plans, done }
}

describe('generation sequences', () => {
  it('single: one request for five hypotheses, kept as proposed with ids C1..', () => {
    const { plans, done } = play(settings('single'))
    expect(plans.map((p) => [p.kind, p.template.entry.id])).toEqual([['single', 'hypothesis-single']])
    expect(generatedSet(settings('single'), done).hypotheses.map((h) => [h.id, h.statement])).toEqual([
      ['C1', 'S0.'],
      ['C2', 'S1.']
    ])
  })

  it('multi-stage: five stages carrying earlier answers (stage 4 as a numbered list), then the selection', () => {
    const { plans, done } = play(settings('multi-stage'))
    expect(plans.map((p) => p.kind)).toEqual(['stage', 'stage', 'stage', 'stage', 'stage', 'selection'])
    expect(plans.map((p) => p.format)).toEqual(['text', 'text', 'text', 'json', 'json', 'json'])
    expect(plans[0]!.values.previous_stages).toBe('')
    const stage5 = renderRequest(plans[4]!.template, plans[4]!.values).user
    expect(stage5).toContain('RESULTS OF YOUR PREVIOUS STAGES\n\n=== STAGE 1 ===\nanswer 0\n\n')
    expect(stage5).toContain('=== STAGE 4 ===\n1. S6. Mechanism: M6. Prediction: P6.\n2. S7. Mechanism: M7. Prediction: P7.\n\nSTAGE 5 OF 5')
    expect(stage5).toContain('"parent":"number of the stage-4 item"')
    const selection = renderRequest(plans[5]!.template, plans[5]!.values).user
    expect(selection).toContain('[C1] S6. Mechanism: M6. Prediction: P6.\n\n[C2] S7. Mechanism: M7. Prediction: P7.\n\n[C3] S8.')
    // The answer named one candidate: the rest are filled in proposal order.
    const set = generatedSet(settings('multi-stage'), done)
    expect(set.hypotheses.map((h) => h.id)).toEqual(['C3', 'C1', 'C2', 'C4'])
    expect(set.selection).toMatchObject({ fromAnswer: ['C3'], filled: ['C1', 'C2', 'C4'] })
  })

  it('multi-stage: asks further while that brings the generated tokens closer to the budget', () => {
    expect(furtherMovesCloser(1000, 600, 100)).toBe(true)
    expect(furtherMovesCloser(1000, 960, 100)).toBe(false)
    // Five stages of 100 tokens = 500; a budget of 800 takes further requests of 100 up to 800.
    const { plans } = play(settings('multi-stage', 800))
    expect(plans.map((p) => p.kind)).toEqual(['stage', 'stage', 'stage', 'stage', 'stage', 'further', 'further', 'further', 'selection'])
    const further = renderRequest(plans[6]!.template, plans[6]!.values).user
    expect(further).toContain('Hypotheses you have already proposed (propose new, different ones; do not repeat or restate them):\n1. S6. Mechanism: M6.')
    expect(further).toContain('\n5. S10. Mechanism: M10. Prediction: P10.\n6. S11.')
  })

  it('omega-point: the lens of the task at stage 3 and its stage-4 role directive, granted one task in five', () => {
    const { plans } = play(settings('omega-point'))
    expect(plans.map((p) => p.template.entry.id)).toEqual(['hypothesis-stage', 'hypothesis-stage', 'hypothesis-stage', 'omega-stage-4', 'hypothesis-stage', 'hypothesis-selection'])
    const lens = getTemplate(builtInTemplates(), 'omega-lenses').parts['reliability-engineering']!
    expect(plans[2]!.values.stage_text).toContain(`Epistemic lens: ${lens}`)
    expect(plans[0]!.values.stage_text).toMatch(/^STAGE 1 OF 5 — INVERSE FAILURE ANALYSIS/)
    const { plans: grantedPlans } = play(settings('omega-point'), granted)
    expect(grantedPlans[3]!.template.entry.id).toBe('omega-stage-4-granted')
    expect(grantedPlans[2]!.values.stage_text).toContain(getTemplate(builtInTemplates(), 'omega-lenses').parts['cybernetic-control-systems']!)
  })

  it('reads stage answers: text, hypotheses and a selection; anything else cannot go on', () => {
    expect(readStepAnswer('stage', 'text', 'Some analysis.')).toEqual({ ok: true, hypotheses: null, selected: null })
    expect(readStepAnswer('stage', 'json', 'x {"hypotheses":[{"statement":"s"}],"notes":""}')).toEqual({ ok: true, hypotheses: [{ statement: 's', mechanism: '', prediction: '' }], selected: null })
    expect(readStepAnswer('selection', 'json', '{"selected":["C2","C9"]}')).toEqual({ ok: true, hypotheses: null, selected: ['C2', 'C9'] })
    expect(readStepAnswer('stage', 'json', '{"ideas":[]}')).toMatchObject({ ok: false })
    expect(readStepAnswer('stage', 'text', '  ')).toEqual({ ok: false, error: 'empty answer' })
  })
})
