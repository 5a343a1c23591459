import { describe, expect, it } from 'vitest'
import {
  GROK_SUFFIX_V1,
  answersWithJsonOnly,
  applyGrokSuffix,
  finishForModel,
  isGrokModel,
  renderRequest
} from '../../../src/shared/templates'
import { builtIn, loadBuiltInTemplates } from './support/load-templates'
import { grokSuffixFromSeed } from './support/seed-locations'
import { pinnedDigests, sha256, sourcesPresent, withSourcesTitle } from './support/source-digests'

const FIRST =
  'You have no tools, no files and no internet access. Give your complete final answer in this single reply, in the requested format. Never describe what you are going to do; do it now.'
const SECOND = 'Your reply must start with { and be only the JSON object.'

describe('Grok suffix', () => {
  it('is the text of the source, by its pinned digest', () => {
    expect(GROK_SUFFIX_V1.instruction).toBe(FIRST)
    expect(GROK_SUFFIX_V1.jsonOnly).toBe(SECOND)
    expect(sha256(GROK_SUFFIX_V1.instruction)).toBe(pinnedDigests()['grok-suffix instruction'])
    expect(sha256(GROK_SUFFIX_V1.jsonOnly)).toBe(pinnedDigests()['grok-suffix json-only'])
  })

  it.skipIf(!sourcesPresent())(withSourcesTitle('is the text of the source document'), () => {
    expect(grokSuffixFromSeed()).toEqual({ instruction: GROK_SUFFIX_V1.instruction, jsonOnly: GROK_SUFFIX_V1.jsonOnly })
  })

  it('appends the first paragraph to both messages and the JSON sentence to the user message only', () => {
    expect(applyGrokSuffix({ system: 'S', user: 'U' }, true)).toEqual({
      system: `S\n\n${FIRST}`,
      user: `U\n\n${FIRST}\n\n${SECOND}`
    })
    expect(applyGrokSuffix({ system: 'S', user: 'U' }, false)).toEqual({ system: `S\n\n${FIRST}`, user: `U\n\n${FIRST}` })
    expect(applyGrokSuffix({ user: 'U' }, true)).toEqual({ user: `U\n\n${FIRST}\n\n${SECOND}` })
  })

  it('treats only bare JSON answers as JSON', () => {
    expect(answersWithJsonOnly('json')).toBe(true)
    expect(answersWithJsonOnly('json-block')).toBe(false)
    expect(answersWithJsonOnly('text')).toBe(false)
    expect(answersWithJsonOnly('letter')).toBe(false)
    expect(answersWithJsonOnly(null)).toBe(false)
  })

  it('recognises Grok model ids', () => {
    expect(isGrokModel('grok-4')).toBe(true)
    expect(isGrokModel('x-ai/grok-4.7')).toBe(true)
    expect(isGrokModel('Grok 4.5')).toBe(true)
    expect(isGrokModel('gpt-5.6')).toBe(false)
    expect(isGrokModel('claude-opus-5.5')).toBe(false)
  })

  it('applies to the requests the source lists: generation, judging, forecasting, originality scoring, cue rating', () => {
    const withSuffix = loadBuiltInTemplates()
      .templates.filter((t) => t.entry.kind === 'request' && t.entry.grokSuffix)
      .map((t) => t.entry.id)
      .sort()
    expect(withSuffix).toEqual(
      [
        'cue-rating',
        'flaw-audit-judge',
        'forecast-detailed',
        'forecast-short-claim',
        'forecast-short-set',
        'hypothesis-further',
        'hypothesis-selection',
        'hypothesis-single',
        'hypothesis-stage',
        'idea-further',
        'idea-generation',
        'idea-omega-stage-4',
        'idea-omega-stage-4-granted',
        'idea-review',
        'idea-selection',
        'idea-stage',
        'match-judge',
        'omega-stage-4',
        'omega-stage-4-granted',
        'pairwise-ranker',
        'pairwise-ranker-lr'
      ].sort()
    )
  })

  it('finishes a request for a model by the template, the model and the answer format', () => {
    const judge = builtIn('match-judge')
    const msgs = { system: 'S', user: 'U' }
    expect(finishForModel(judge.entry, msgs, 'grok-4.7').user.endsWith(SECOND)).toBe(true)
    expect(finishForModel(judge.entry, msgs, 'gpt-5.6')).toBe(msgs)
    expect(finishForModel(builtIn('leak-audit').entry, msgs, 'grok-4.7')).toBe(msgs)
    const review = finishForModel(builtIn('idea-review').entry, msgs, 'grok-4.7')
    expect(review.user).toBe(`U\n\n${FIRST}`)
    // A stage request answers in the format of its inserted fragment.
    const stage = builtIn('hypothesis-stage').entry
    expect(finishForModel(stage, msgs, 'grok-4.7', builtIn('stage-format-text').entry.answerFormat).user).toBe(`U\n\n${FIRST}`)
    expect(finishForModel(stage, msgs, 'grok-4.7', builtIn('stage-format-4').entry.answerFormat).user.endsWith(SECOND)).toBe(true)
  })

  it('leaves a rendered request otherwise unchanged', () => {
    const msgs = renderRequest(builtIn('idea-generation'), { keyword: 'autophagy' })
    const out = applyGrokSuffix(msgs, true)
    expect(out.system?.startsWith(msgs.system ?? '')).toBe(true)
    expect(out.user.startsWith(msgs.user)).toBe(true)
  })
})
