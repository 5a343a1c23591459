import { describe, expect, it } from 'vitest'
import {
  TemplateRenderError,
  renderPart,
  renderRequest,
  renderTemplate,
  type Template,
  type TemplateEntry
} from '../../../src/shared/templates'
import { formatLabelledBlocks, formatPreviousStages } from '../../../src/shared/protocol'
import { builtIn } from './support/load-templates'

function entry(over: Partial<TemplateEntry> = {}): TemplateEntry {
  return {
    id: 'probe',
    version: 2,
    kind: 'request',
    instrument: 'leak-audit',
    answerFormat: 'json',
    grokSuffix: false,
    placeholders: [
      { name: 'background', token: '[BACKGROUND]', description: 'b' },
      { name: 'question', token: '[RESEARCH QUESTION]', description: 'q' },
      { name: 'key_points', token: '- [KEY POINT 1]\n- [KEY POINT 2]', description: 'k' }
    ],
    source: { seed: 'x.txt', section: 's' },
    files: { system: 'probe/v2.system.txt', user: 'probe/v2.user.txt' },
    ...over
  }
}

const probe: Template = {
  entry: entry(),
  parts: {
    system: 'About [RESEARCH QUESTION].',
    user: 'B: [BACKGROUND]\nQ: [RESEARCH QUESTION]\nKey points:\n- [KEY POINT 1]\n- [KEY POINT 2]\n[P1] stays'
  }
}

const values = { background: 'bg', question: 'why?', key_points: '- one\n- two\n- three' }

function renderError(fn: () => unknown): TemplateRenderError {
  try {
    fn()
  } catch (err) {
    if (err instanceof TemplateRenderError) return err
    throw err
  }
  throw new Error('expected a TemplateRenderError')
}

describe('renderRequest', () => {
  it('replaces every declared token in every part, block tokens included, and leaves literal labels', () => {
    expect(renderRequest(probe, values)).toEqual({
      system: 'About why?.',
      user: 'B: bg\nQ: why?\nKey points:\n- one\n- two\n- three\n[P1] stays'
    })
  })

  it('refuses a missing placeholder and names it', () => {
    const err = renderError(() => renderRequest(probe, { background: 'bg', key_points: '' }))
    expect(err.template).toBe('probe@2')
    expect(err.problems).toEqual(['missing value for placeholder "question" ([RESEARCH QUESTION])'])
  })

  it('refuses an unknown placeholder and lists the declared ones', () => {
    const err = renderError(() => renderRequest(probe, { ...values, backgruond: 'typo' }))
    expect(err.problems).toEqual(['unknown placeholder "backgruond" (declared: background, question, key_points)'])
    expect(err.message).toContain('cannot render probe@2')
  })

  it('refuses a value that is not a string', () => {
    const err = renderError(() => renderRequest(probe, { ...values, question: 42 as unknown as string }))
    expect(err.problems).toEqual(['value of placeholder "question" is not a string'])
  })

  it('does not expand tokens or replacement patterns inside values', () => {
    const out = renderRequest(probe, { background: 'see [RESEARCH QUESTION] and $& and $1', question: 'q', key_points: '' })
    expect(out.user.startsWith('B: see [RESEARCH QUESTION] and $& and $1\nQ: q\n')).toBe(true)
  })

  it('allows an empty value', () => {
    expect(renderRequest(probe, { ...values, key_points: '' }).user).toBe('B: bg\nQ: why?\nKey points:\n\n[P1] stays')
  })

  it('returns no system message for a user-only template', () => {
    const userOnly: Template = { entry: entry({ files: { user: 'u.txt' } }), parts: { user: '[BACKGROUND]' } }
    const t: Template = {
      ...userOnly,
      entry: { ...userOnly.entry, placeholders: [{ name: 'background', token: '[BACKGROUND]', description: 'b' }] }
    }
    expect(renderRequest(t, { background: 'x' })).toEqual({ user: 'x' })
  })

  it('does not render a fragment as a request', () => {
    const frag: Template = { entry: entry({ kind: 'fragment', placeholders: [] }), parts: { text: 'x' } }
    expect(() => renderRequest(frag, {})).toThrow(/fragment is not a request/)
  })
})

describe('renderPart', () => {
  it('asks only for the placeholders of that part', () => {
    expect(renderPart(probe, 'system', { question: 'q' })).toBe('About q.')
  })

  it('refuses a declared placeholder that does not occur in the part', () => {
    const err = renderError(() => renderPart(probe, 'system', { question: 'q', background: 'b' }))
    expect(err.problems).toEqual(['placeholder "background" does not occur in part "system"'])
  })

  it('refuses an unknown part', () => {
    expect(() => renderPart(probe, 'assistant', {})).toThrow(/no part "assistant"/)
  })
})

describe('renderTemplate on the built-in templates', () => {
  it('builds a stage-3 Omega Point request from the stage structure and the fragments', () => {
    const stage = builtIn('hypothesis-stage')
    const lens = builtIn('omega-lenses').parts['reliability-engineering'] ?? ''
    const stageText = renderPart(builtIn('omega-stages'), 'stage-3', { lens })
    const format = builtIn('stage-format-text').parts.text ?? ''
    const out = renderRequest(stage, {
      background: 'BG',
      question: 'Q?',
      previous_stages: formatPreviousStages([
        { stage: 1, answer: 'pillars' },
        { stage: 2, answer: 'map' }
      ]),
      stage_text: stageText,
      answer_format: format
    })
    expect(out.system).toBe(
      'You are a research scientist in the biology of ageing. You propose scientific hypotheses that answer research questions. Answer with JSON only.'
    )
    expect(out.user).toBe(
      'TASK\nResearch background:\nBG\n\nResearch question:\nQ?\n\n' +
        'The goal is hypotheses that answer the research question: specific, testable causal claims.\n\n' +
        'RESULTS OF YOUR PREVIOUS STAGES\n\n=== STAGE 1 ===\npillars\n\n=== STAGE 2 ===\nmap\n\n' +
        `STAGE 3 OF 5 — GAP QUESTIONS (Omega Point method). Epistemic lens: ${lens}\n` +
        stageText.split('\n').slice(1).join('\n') +
        '\n\nWrite plain text.'
    )
    expect(lens.startsWith('Reliability Engineering. View the system as a mission-critical system')).toBe(true)
  })

  it('leaves the results section out at stage 1', () => {
    const out = renderRequest(builtIn('hypothesis-stage'), {
      background: 'BG',
      question: 'Q?',
      previous_stages: formatPreviousStages([]),
      stage_text: builtIn('chain-stages').parts['stage-1'] ?? '',
      answer_format: 'Write plain text.'
    })
    expect(out.user).toContain('causal claims.\n\nSTAGE 1 OF 5 — Analyse the task.')
    expect(out.user).not.toContain('RESULTS OF YOUR PREVIOUS STAGES')
  })

  it('renders the match judge with a seeded P-block', () => {
    const out = renderTemplate(builtIn('match-judge'), {
      background: 'BG',
      question: 'Q',
      reference_finding: 'F',
      key_points_list: '- k1\n- k2\n- k3',
      hypotheses: formatLabelledBlocks('P', ['h1', 'h2', 'h3', 'h4', 'h5'])
    })
    expect(out.user).toContain('Key points:\n- k1\n- k2\n- k3\n\nProposed hypotheses:\n\n[P1] h1\n\n[P2] h2\n\n[P3] h3\n\n[P4] h4\n\n[P5] h5\n\nFor each')
  })
})
