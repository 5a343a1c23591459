import { describe, expect, it } from 'vitest'
import { builtInTemplates, generatedIdeas, nextIdeaStep, readIdeaStepAnswer, type ChainSettings, type StepOutcome, type StepPlan } from '../../../src/main/runner'
import { renderRequest } from '../../../src/shared/templates'

// The idea sequences of the three schemes, played through with fixed answers.

const task = { taskId: 'autophagy', keyword: 'autophagy', background: '', question: '' }
const settings = (scheme: ChainSettings['scheme'], tokenBudget: number | null = null): ChainSettings => ({ scheme, templates: builtInTemplates(), tokenBudget, target: 'ideas' })

function play(s: ChainSettings, selected: string[] = ['C3'], tokens = 100): { plans: StepPlan[]; done: StepOutcome[] } {
  const plans: StepPlan[] = []
  const done: StepOutcome[] = []
  for (let step = nextIdeaStep(s, task, done); step; step = nextIdeaStep(s, task, done)) {
    plans.push(step)
    const ideas = step.format === 'json' && step.kind !== 'selection' ? [`Idea ${2 * step.index}.`, `Idea ${2 * step.index + 1}.`] : null
    done.push({ index: step.index, kind: step.kind, stage: step.stage, text: `answer ${step.index}`, hypotheses: null, ideas, selected: step.kind === 'selection' ? selected : null, outputTokens: tokens })
    if (plans.length > 40) throw new Error('runaway')
  }
  return { plans, done }
}

describe('idea sequences', () => {
  it('single: one request for two ideas, all kept as chosen', () => {
    const { plans, done } = play(settings('single'))
    expect(plans.map((p) => [p.kind, p.template.entry.id])).toEqual([['single', 'idea-generation']])
    expect(generatedIdeas(settings('single'), done)).toEqual({ candidates: [{ id: 'C1', idea: 'Idea 0.', rank: 1 }, { id: 'C2', idea: 'Idea 1.', rank: 2 }], selection: null })
  })

  it('multi-stage: five derived stages and the choice of two, filled in proposal order when one is named', () => {
    const { plans, done } = play(settings('multi-stage'))
    expect(plans.map((p) => p.template.entry.id)).toEqual(['idea-stage', 'idea-stage', 'idea-stage', 'idea-stage', 'idea-stage', 'idea-selection'])
    const out = generatedIdeas(settings('multi-stage'), done)
    // Stage 4 proposed C1, C2; stage 5 C3, C4. The answer named C3 only: C3 then C1.
    expect(out.candidates.map((c) => [c.id, c.rank])).toEqual([['C1', 2], ['C2', null], ['C3', 1], ['C4', null]])
    expect(out.selection).toMatchObject({ fromAnswer: ['C3'], filled: ['C1'] })
    const selection = renderRequest(plans[5]!.template, plans[5]!.values)
    expect(selection.system).toBe('You are a scientist who proposes research ideas.')
    expect(selection.user).toBe(
      'Keyword: "autophagy"\n\nCandidate ideas:\n\n[C1] Idea 6.\n\n[C2] Idea 7.\n\n[C3] Idea 8.\n\n[C4] Idea 9.\n\nSelect the 2 ideas to submit to a "Good Scientific Idea" expert review panel that judges originality, feasibility and clarity. They must differ from each other. Best first.\nReturn JSON {"selected":["C..","C.."]}'
    )
  })

  it('multi-stage with a token budget asks the derived further request', () => {
    const { plans } = play(settings('multi-stage', 900))
    expect(plans.filter((p) => p.kind === 'further').map((p) => p.template.entry.id)).toEqual(['idea-further', 'idea-further', 'idea-further', 'idea-further'])
    expect(plans.find((p) => p.kind === 'further')!.values.proposed_ideas).toMatch(/^1\. Idea \d+\.\n2\. Idea/)
  })

  it('omega-point: the lens at stage 3 and the derived stage-4 request with the role directive', () => {
    const { plans } = play(settings('omega-point'))
    expect(plans[2]!.values.stage_text).toContain('Epistemic lens:')
    expect(['idea-omega-stage-4', 'idea-omega-stage-4-granted']).toContain(plans[3]!.template.entry.id)
    expect(plans[3]!.values.answer_format).toBe('Return JSON {"ideas":[{"idea":"the idea"}],"notes":""}')
  })

  it('reads idea answers, and refuses what a later step cannot use', () => {
    expect(readIdeaStepAnswer('stage', 'json', 'Here:\n{"ideas":[{"idea":"A"},{"idea":"B"}],"notes":""}')).toEqual({ ok: true, ideas: ['A', 'B'], selected: null })
    expect(readIdeaStepAnswer('stage', 'json', '{"hypotheses":[{"statement":"A"}]}')).toMatchObject({ ok: false, error: 'the answer has no "ideas" with an "idea" text' })
    expect(readIdeaStepAnswer('stage', 'json', '{"ideas":[{"idea":"  "}]}').ok).toBe(false)
    expect(readIdeaStepAnswer('selection', 'json', '{"selected":["C2","C1"]}')).toEqual({ ok: true, ideas: null, selected: ['C2', 'C1'] })
    expect(readIdeaStepAnswer('stage', 'text', '  ').ok).toBe(false)
  })
})
