import { describe, expect, it } from 'vitest'
import { getInstrument } from '../../../src/shared/instruments'
import { buildInstrument } from '../../../src/shared/instruments/declared/build'
import { readDeclaration } from '../../../src/shared/instruments/declared/read'
import { fieldInstructions } from '../../../src/shared/instruments/declared/prompt'
import type { Declaration } from '../../../src/shared/instruments/declared/declaration'

// A declared list of flaws (type × severity, evidence quoted from the side it names) is answered, checked and
// counted as the built-in flaw audit is.

const TYPES = [
  { value: 'unsound_method', label: 'Unsound method' },
  { value: 'covered_by_prior_work', label: 'Covered by prior work' }
]

function declare(extra: Record<string, unknown> = {}, item: 'pair' | 'text' = 'pair'): Declaration {
  const r = readDeclaration(
    JSON.stringify({ id: 'flaw-study', title: 'Flaws', item, fields: [{ name: 'flaws', kind: 'flaws', label: 'Flaws', types: TYPES, ...extra }] }, null, 2),
    'flaws.json'
  )
  if (!r.ok) throw new Error(JSON.stringify(r.problems))
  return r.declaration
}

const PAIR = {
  pair_id: 'p1',
  topic: 'Topic',
  a: { markdown: '# A\n\nWe divide by the sample size squared.', origin: 'human' },
  b: { markdown: '# B\n\nWe measure twice and average.', origin: 'ai' }
}

describe('a declared list of flaws', () => {
  it('holds flaws of the declared types and severities, each quoting its evidence, on a named side', () => {
    const inst = buildInstrument(declare(), 1)
    const ok = inst.judgement.safeParse({ flaws: [{ side: 'A', type: 'Unsound_Method', severity: 'fatal', evidence: 'sample size squared' }] })
    expect(ok.success).toBe(true)
    expect(ok.data).toEqual({ flaws: [{ side: 'a', type: 'unsound_method', severity: 'fatal', evidence: 'sample size squared', note: '' }] })
    expect(inst.judgement.safeParse({ flaws: [] }).success).toBe(true)
    expect(inst.judgement.safeParse({ flaws: [{ side: 'a', type: 'typo', severity: 'fatal', evidence: 'x' }] }).success).toBe(false)
    expect(inst.judgement.safeParse({ flaws: [{ side: 'a', type: 'unsound_method', severity: 'grave', evidence: 'x' }] }).success).toBe(false)
    expect(inst.judgement.safeParse({ flaws: [{ type: 'unsound_method', severity: 'fatal', evidence: 'x' }] }).success).toBe(false)
    expect(inst.judgement.safeParse({ flaws: [{ side: 'a', type: 'unsound_method', severity: 'fatal', evidence: '  ' }] }).success).toBe(false)
    expect(inst.form.empty({})).toEqual({ flaws: [] })
  })

  it('refuses evidence that is not in the side the flaw names, in the item and as shown', () => {
    const inst = buildInstrument(declare(), 1)
    const right = { flaws: [{ side: 'a', type: 'unsound_method', severity: 'major', evidence: 'sample size squared', note: '' }] }
    const wrongSide = { flaws: [{ side: 'b', type: 'unsound_method', severity: 'major', evidence: 'sample size squared', note: '' }] }
    expect(inst.check(right, PAIR as never)).toEqual([])
    expect(inst.check(wrongSide, PAIR as never)).toEqual([{ path: 'flaws.0.evidence', message: 'This quote is not in the proposal the flaw names.' }])
    const view = { a: { markdown: PAIR.b.markdown }, b: { markdown: PAIR.a.markdown } }
    expect(inst.declared!.checkView(wrongSide, view)).toEqual([])
  })

  it('maps sides back when the pair was shown the other way round', () => {
    const inst = buildInstrument(declare(), 1)
    const shown = { flaws: [{ side: 'a', type: 'unsound_method', severity: 'minor', evidence: 'x', note: '' }] }
    expect(inst.toCanonical(shown, { swapped: true })).toEqual({ flaws: [{ side: 'b', type: 'unsound_method', severity: 'minor', evidence: 'x', note: '' }] })
    expect(inst.toCanonical(shown, { swapped: false })).toEqual(shown)
  })

  it('is counted per side as the built-in flaw audit counts it: the worst severity, a fatal one found, and each type', () => {
    const inst = buildInstrument(declare(), 1)
    const flaws = [
      { side: 'a', type: 'unsound_method', severity: 'major', evidence: 'sample size squared', note: '' },
      { side: 'a', type: 'covered_by_prior_work', severity: 'fatal', evidence: 'We divide', note: '' }
    ]
    const declared = inst.observe({ flaws }, PAIR as never)
    expect(declared).toEqual([
      { unit: 'p1:a', values: { 'flaws.worst': 'fatal', 'flaws.has_fatal': true, 'flaws.unsound_method': true, 'flaws.covered_by_prior_work': true } },
      { unit: 'p1:b', values: { 'flaws.worst': 'none', 'flaws.has_fatal': false, 'flaws.unsound_method': false, 'flaws.covered_by_prior_work': false } }
    ])
    const builtIn = getInstrument('flaw-audit').observe({ flaws: flaws as never }, PAIR as never)
    for (const [i, unit] of builtIn.entries()) {
      expect(declared[i]!.unit).toBe(unit.unit)
      expect(declared[i]!.values['flaws.worst']).toBe(unit.values.max_severity)
      expect(declared[i]!.values['flaws.has_fatal']).toBe(unit.values.has_fatal)
    }
    expect(inst.fields.map((f) => [f.name, f.level])).toEqual([
      ['flaws.worst', 'ordinal'],
      ['flaws.has_fatal', 'nominal'],
      ['flaws.unsound_method', 'nominal'],
      ['flaws.covered_by_prior_work', 'nominal']
    ])
  })

  it('on a single text: one unit, no side, severities of the declaration’s own', () => {
    const inst = buildInstrument(declare({ severities: [{ value: 'low', label: 'Low' }, { value: 'high', label: 'High' }], evidence: 'optional' }, 'text'), 1)
    const parsed = inst.judgement.parse({ flaws: [{ type: 'unsound_method', severity: 'high' }] })
    expect(parsed).toEqual({ flaws: [{ type: 'unsound_method', severity: 'high', evidence: '', note: '' }] })
    expect(inst.observe(parsed, { idea: 'Some idea.' } as never)).toEqual([
      { unit: 'item', values: { 'flaws.worst': 'high', 'flaws.has_high': true, 'flaws.unsound_method': true, 'flaws.covered_by_prior_work': false } }
    ])
    expect(inst.check({ flaws: [{ type: 'unsound_method', severity: 'low', evidence: 'not there', note: '' }] }, { idea: 'Some idea.' } as never)).toEqual([
      { path: 'flaws.0.evidence', message: 'This quote is not in the text shown.' }
    ])
  })

  it('gives annotators a list whose entries name the side, type, severity and evidence, and judges the same in words', () => {
    const d = declare()
    const inst = buildInstrument(d, 1)
    const list = inst.form.widgets[0]!
    expect(list).toMatchObject({ kind: 'list', field: 'flaws', itemLabel: 'Flaw' })
    expect(list.kind === 'list' ? list.widgets.map((w) => w.field) : []).toEqual(['side', 'type', 'severity', 'evidence', 'note'])
    const words = fieldInstructions(d)
    expect(words).toContain('"side": "a" or "b"')
    expect(words).toContain('"severity": one of "minor", "major", "fatal" (least to most severe)')
    expect(words).toContain('"unsound_method" = Unsound method')
  })

  it('refuses a repeated type, a type named like a statistic, and a condition', () => {
    const text = JSON.stringify({
      id: 'bad-flaws',
      title: 'Flaws',
      item: 'pair',
      fields: [
        { name: 'ok', kind: 'choice', label: 'OK', options: [{ value: 'y', label: 'Y' }, { value: 'n', label: 'N' }] },
        { name: 'flaws', kind: 'flaws', label: 'Flaws', types: [...TYPES, TYPES[0], { value: 'worst', label: 'Worst' }], required_when: { field: 'ok', in: ['n'] } }
      ]
    }, null, 2)
    const r = readDeclaration(text, 'bad.json')
    expect(r.ok).toBe(false)
    if (r.ok) return
    const byField = Object.fromEntries(r.problems.map((p) => [p.field, p.message]))
    expect(byField['fields.1.types.2.value']).toMatch(/listed twice/)
    expect(byField['fields.1.types.3.value']).toMatch(/names a statistic of the list/)
    expect(byField['fields.1.required_when']).toMatch(/neither optional nor required when/)
  })
})
