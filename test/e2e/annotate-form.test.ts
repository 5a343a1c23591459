import { describe, expect, it } from 'vitest'
import { getInstrument } from '../../src/shared/instruments'
import { ActiveClock } from '../../src/renderer/src/annotate/clock'
import { answerForKey } from '../../src/renderer/src/annotate/keys'
import { getAt, joinPath, removeAt, setAt } from '../../src/renderer/src/annotate/paths'
import { nextPending } from '../../src/renderer/src/annotate/queue-order'
import { quoteCandidates, quoteSources, sentencesOf, type QuoteWidget } from '../../src/renderer/src/annotate/quotes'
import { alignSections, splitSections } from '../../src/shared/markdown/sections'
import { collectStops, moveGroup, moveStop, stopForIssue, type Stop } from '../../src/renderer/src/annotate/stops'
import { prepareJudgement, validateForm } from '../../src/renderer/src/annotate/validate'

// The pure logic behind the annotation screens (no browser needed): form paths, the keyboard's walk through the
// fields, the form's own validation, quotes, section alignment and the active-time clock.

const hypothesisView = {
  background: 'B',
  question: 'Q',
  reference: { finding: 'F', key_points: [] },
  hypotheses: [
    { id: 'P1', text: 'first' },
    { id: 'P2', text: 'second' }
  ]
}

const pairView = {
  topic: 'T',
  a: { markdown: '## Introduction\nLeft text about uniform audits.\n\n## Proposed Approach\nWe sample uniformly.' },
  b: { markdown: '## Introduction\nRight text.\n\n## Proposed Approach\nThe rule is provably optimal. It is simple.' }
}

const paths = (stops: Stop[]) => stops.map((s) => s.path)

describe('form state paths', () => {
  it('reads and writes nested objects and arrays without mutating', () => {
    const data = { scores: [{ id: 'P1', match: null }], test: { a: '' } }
    const next = setAt(data, 'scores.0.match', 3)
    expect(getAt(next, 'scores.0.match')).toBe(3)
    expect(data.scores[0]!.match).toBeNull()
    expect(Array.isArray(getAt(next, 'scores'))).toBe(true)
    expect(getAt(setAt(data, 'test.b.c', 1), 'test.b.c')).toBe(1)
    expect(removeAt({ list: ['a', 'b', 'c'] }, 'list.1')).toEqual({ list: ['a', 'c'] })
    expect(removeAt({ x: 1, check: { code: 'c' } }, 'check')).toEqual({ x: 1 })
    expect(joinPath('assumptions.0', '')).toBe('assumptions.0')
    expect(joinPath('', 'score')).toBe('score')
  })
})

describe('stops: the keyboard walk through a form', () => {
  it('expands units, with J/K jumping a whole hypothesis', () => {
    const inst = getInstrument('hypothesis-match')
    const stops = collectStops(inst.form.widgets, inst.form.empty(hypothesisView), hypothesisView)
    expect(paths(stops)).toEqual([
      'scores.0.match',
      'scores.0.compatible',
      'scores.0.plausibility',
      'scores.0.reason',
      'scores.1.match',
      'scores.1.compatible',
      'scores.1.plausibility',
      'scores.1.reason'
    ])
    expect(moveStop(stops, 'scores.0.reason', 1)).toBe('scores.1.match')
    expect(moveStop(stops, 'scores.1.reason', 1)).toBe('scores.1.reason')
    expect(moveStop(stops, 'nowhere', 1)).toBe('scores.0.match')
    expect(moveGroup(stops, 'scores.0.compatible', 1)).toBe('scores.1.match')
    expect(moveGroup(stops, 'scores.1.plausibility', -1)).toBe('scores.0.match')
  })

  it('expands list entries and ends each list with a stop that adds one', () => {
    const inst = getInstrument('flaw-audit')
    const data = { flaws: [{ side: null, type: null, severity: null, evidence: '', note: '' }], comment: '' }
    const stops = collectStops(inst.form.widgets, data, pairView)
    expect(paths(stops)).toEqual(['flaws.0.side', 'flaws.0.type', 'flaws.0.severity', 'flaws.0.evidence', 'flaws.0.note', 'flaws.0.check', 'flaws.+', 'no_flaws_found', 'comment'])
    expect(stopForIssue(stops, 'flaws.0.evidence')?.path).toBe('flaws.0.evidence')
    expect(stopForIssue(stops, 'flaws.0.check.ran_at')?.path).toBe('flaws.0.check')
    expect(stopForIssue(stops, 'flaws')?.path).toBe('flaws.0.side')
  })

  it('gives one stop per rubric item and places whole-rubric issues on the first', () => {
    const inst = getInstrument('fs-research-grade')
    const view = { problem: 'P', rubric: [{ points: 4, item: 'x' }, { points: 6, item: 'y' }], response: 'R' }
    const stops = collectStops(inst.form.widgets, inst.form.empty(view), view)
    expect(paths(stops)).toEqual(['points.0', 'points.1', 'total', 'rationale'])
    expect(stopForIssue(stops, 'points')?.path).toBe('points.0')
    expect(stopForIssue(stops, '')).toBeUndefined()
  })
})

describe('keys that answer a field', () => {
  const stopOf = (inst: string, path: string, view: Record<string, unknown>) => {
    const i = getInstrument(inst)
    return collectStops(i.form.widgets, i.form.empty(view), view).find((s) => s.path === path)!
  }
  it('maps option keys, digits (0 = 10 on a 1..10 scale) and y/n', () => {
    const match = stopOf('hypothesis-match', 'scores.0.match', hypothesisView)
    expect(answerForKey(match, '0')).toEqual({ value: 0 })
    expect(answerForKey(match, '6')).toBeUndefined()
    expect(answerForKey(stopOf('hypothesis-match', 'scores.0.compatible', hypothesisView), 'n')).toEqual({ value: false })
    expect(answerForKey(stopOf('idea-review', 'originality', { idea: 'i' }), '0')).toEqual({ value: 10 })
    expect(answerForKey(stopOf('idea-review', 'originality', { idea: 'i' }), '1')).toEqual({ value: 1 })
    const verdict = stopOf('pairwise-preference', 'verdict', pairView)
    expect(answerForKey(verdict, '3')).toEqual({ value: 'b_better' })
    expect(answerForKey(verdict, 'x')).toEqual({ value: 'abstain' })
    expect(answerForKey(verdict, 'y')).toBeUndefined()
  })
})

describe('form validation before submitting', () => {
  const cue = getInstrument('cue-rating')
  const cueView = { background: 'Bg', question: 'Does rapamycin act in the gut of flies?', reference: { finding: 'F', key_points: [] } }
  const cueAnswer = { score: 1, input_score: 1, alternative_score: 2, cue_excerpt: 'rapamycin act in the gut', rationale: 'r', hidden: 'h' }

  it('accepts a complete cue rating whose excerpt is words of the question', () => {
    expect(validateForm(cue, cueAnswer, cueView)).toEqual({ judgement: cueAnswer, issues: [] })
  })

  it('refuses an excerpt that is not in the question, and names missing answers', () => {
    expect(validateForm(cue, { ...cueAnswer, cue_excerpt: 'rapamycin acts in the gut' }, cueView).issues).toEqual([
      { path: 'cue_excerpt', message: 'Not an exact quote of question.' }
    ])
    const empty = validateForm(cue, cue.form.empty(cueView), cueView).issues
    expect(empty.map((i) => i.path).sort()).toEqual(['alternative_score', 'hidden', 'input_score', 'rationale', 'score'])
    expect(new Set(empty.map((i) => i.message))).toEqual(new Set(['Required.']))
  })

  it("checks flaw evidence against the flaw's own proposal, and unrun checks", () => {
    const flaws = getInstrument('flaw-audit')
    const flaw = { side: 'b', type: 'unsound_method', severity: 'fatal', evidence: 'Left text about uniform audits.', note: '' }
    expect(validateForm(flaws, { flaws: [flaw] }, pairView).issues).toEqual([{ path: 'flaws.0.evidence', message: 'Not an exact quote of the right proposal (B).' }])
    const good = { ...flaw, evidence: 'provably  optimal', check: { code: 'console.log(1)', output: '', ran_at: '' } }
    expect(validateForm(flaws, { flaws: [good] }, pairView).issues).toEqual([{ path: 'flaws.0.check', message: 'Run the check (r) so its output is stored with it.' }])
    // A blank check is left out of the answer rather than refused.
    const blank = { flaws: [{ ...good, check: undefined }, { ...good, check: { code: ' ', output: '', ran_at: '' } }] }
    expect(prepareJudgement(flaws.form.widgets, blank)).toEqual({ flaws: [{ ...flaw, evidence: 'provably  optimal' }, { ...flaw, evidence: 'provably  optimal' }] })
    expect(validateForm(flaws, blank, pairView).issues).toEqual([])
  })

  it('refuses rubric points over an item maximum and a sum over 10', () => {
    const grade = getInstrument('fs-research-grade')
    const view = { problem: 'P', rubric: [{ points: 4, item: 'x' }, { points: 6, item: 'y' }], response: 'R' }
    const issues = validateForm(grade, { points: [5, 6], total: 11, rationale: '' }, view).issues
    expect(issues).toContainEqual({ path: 'points.0', message: 'At most 4 points for this item.' })
    expect(issues).toContainEqual({ path: 'points', message: 'The points add up to 11, over 10.' })
    expect(issues.some((i) => i.path === 'total')).toBe(true)
    expect(validateForm(grade, { points: [4, 3.5], total: 7.5, rationale: '' }, view).issues).toEqual([])
  })
})

describe('quotes', () => {
  const widget = getInstrument('flaw-audit').form.widgets[0]
  const evidence = (widget?.kind === 'list' ? widget.widgets.find((w) => w.kind === 'quote') : undefined) as QuoteWidget

  it("takes a list entry's side to choose the proposal quoted", () => {
    expect(quoteSources(evidence, pairView, { side: 'a' }).map((s) => s.label)).toEqual(['the left proposal (A)'])
    expect(quoteSources(evidence, pairView, { side: null }).map((s) => s.label)).toEqual(['the left proposal (A)', 'the right proposal (B)'])
  })

  it('offers sentences that are exact spans of the text, the typed words first when they occur verbatim', () => {
    const text = '## Method\n- The rule is provably optimal. It is simple!\n\n| a | b |\nSecond paragraph here.'
    const sentences = sentencesOf(text)
    expect(sentences).toContain('The rule is provably optimal.')
    expect(sentences).toContain('It is simple!')
    for (const s of sentences) expect(text.includes(s)).toBe(true)
    const sources = [{ path: 'b.markdown', label: 'the right proposal (B)', text }]
    const found = quoteCandidates(sources, 'provably optimal')
    expect(found[0]).toMatchObject({ text: 'provably optimal', exact: true })
    expect(found[1]).toMatchObject({ text: 'The rule is provably optimal.', exact: false })
    expect(quoteCandidates(sources, 'not in it')).toEqual([])
  })
})

describe('sections of two proposals side by side', () => {
  it('aligns matching sections and gives a section one side lacks a row of its own', () => {
    const a = splitSections('## Introduction\nA1\n## Approach\nA2\n```\n## not a heading\n```\n## References\nA3')
    const b = splitSections('## Introduction\nB1\n## Extra\nB2\n## approach\nB3')
    expect(a.map((s) => s.title)).toEqual(['Introduction', 'Approach', 'References'])
    const rows = alignSections(a, b)
    expect(rows.map((r) => [r.title, r.a?.title ?? null, r.b?.title ?? null])).toEqual([
      ['Introduction', 'Introduction', 'Introduction'],
      ['Extra', null, 'Extra'],
      ['Approach', 'Approach', 'approach'],
      ['References', 'References', null]
    ])
  })
})

describe('active time', () => {
  it('counts time between inputs up to the idle limit, and nothing while hidden', () => {
    let now = 0
    const clock = new ActiveClock(1000, () => now, 60_000)
    now = 10_000
    clock.input()
    expect(clock.read()).toBe(11_000)
    now = 130_000 // two minutes without input: only the first minute counts
    expect(clock.isIdle()).toBe(true)
    expect(clock.read()).toBe(71_000)
    clock.input()
    now = 135_000
    expect(clock.read()).toBe(76_000)
    clock.pause()
    now = 500_000
    expect(clock.read()).toBe(76_000)
    clock.input()
    now = 502_000
    expect(clock.read()).toBe(78_000)
  })
})

describe('queue order', () => {
  it('finds the next pending item after the current one, wrapping round', () => {
    const rows = [
      { assignmentId: 1, status: 'pending' as const },
      { assignmentId: 2, status: 'done' as const },
      { assignmentId: 3, status: 'skipped' as const },
      { assignmentId: 4, status: 'pending' as const }
    ]
    expect(nextPending(rows, 0)?.assignmentId).toBe(4)
    expect(nextPending(rows, 3)?.assignmentId).toBe(1)
    expect(nextPending(rows, -1)?.assignmentId).toBe(1)
    expect(nextPending(rows.map((r) => ({ ...r, status: 'done' as const })), 0)).toBeUndefined()
  })
})
