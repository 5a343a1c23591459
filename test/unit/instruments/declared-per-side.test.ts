import { describe, expect, it } from 'vitest'
import { missingRequired } from '../../../src/shared/instruments/requirements'
import { buildInstrument } from '../../../src/shared/instruments/declared/build'
import { readDeclaration } from '../../../src/shared/instruments/declared/read'
import { fieldInstructions } from '../../../src/shared/instruments/declared/prompt'
import type { Declaration } from '../../../src/shared/instruments/declared/declaration'

// The same questions asked of each proposal of a pair: answered side by side as shown, stored by canonical side,
// and compared per side (units <pair>:a and <pair>:b), each question as its own field.

function declare(fields: unknown[], item = 'pair'): { ok: true; d: Declaration } | { ok: false; problems: Array<{ field?: string | undefined; message: string }> } {
  const r = readDeclaration(JSON.stringify({ id: 'side-scores', title: 'Scores', item, fields }, null, 2), 'side.json')
  return r.ok ? { ok: true, d: r.declaration } : { ok: false, problems: r.problems }
}

const GROUP = {
  name: 'scores',
  kind: 'per_side',
  label: 'Each proposal',
  fields: [
    { name: 'novelty', kind: 'scale', label: 'Novelty', min: 1, max: 10 },
    { name: 'feasible', kind: 'choice', label: 'Feasible', options: [{ value: 'no', label: 'No' }, { value: 'yes', label: 'Yes' }] },
    { name: 'why', kind: 'text', label: 'Why', optional: true }
  ]
}
const BETTER = { name: 'better', kind: 'choice', label: 'Better', options: [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }], swap: { a: 'b', b: 'a' } }

function built() {
  const r = declare([GROUP, BETTER])
  if (!r.ok) throw new Error(JSON.stringify(r.problems))
  return { d: r.d, inst: buildInstrument(r.d, 1) }
}

const answer = (a: [number, string], b: [number, string]) => ({
  scores: { a: { novelty: a[0], feasible: a[1], why: '' }, b: { novelty: b[0], feasible: b[1], why: '' } },
  better: 'a'
})

describe('a per-side group of a declared pair instrument', () => {
  it('asks each question of A, then of B, and requires what is not optional on both', () => {
    const { inst } = built()
    expect(inst.form.widgets.map((w) => [w.field, w.label])).toEqual([
      ['scores.a.novelty', 'A (left) · Novelty'],
      ['scores.a.feasible', 'A (left) · Feasible'],
      ['scores.a.why', 'A (left) · Why'],
      ['scores.b.novelty', 'B (right) · Novelty'],
      ['scores.b.feasible', 'B (right) · Feasible'],
      ['scores.b.why', 'B (right) · Why'],
      ['better', 'Better']
    ])
    const empty = inst.form.empty({})
    expect(empty).toEqual({ scores: { a: { novelty: null, feasible: null, why: '' }, b: { novelty: null, feasible: null, why: '' } }, better: null })
    expect(inst.judgement.safeParse(empty).success).toBe(false)
    expect(inst.judgement.safeParse(answer([7, 'yes'], [3, 'no'])).success).toBe(true)
    expect(inst.judgement.safeParse({ ...answer([7, 'yes'], [3, 'no']), scores: { a: { novelty: 7, feasible: 'yes' } } }).success).toBe(false)
    expect(inst.judgement.safeParse(answer([11, 'yes'], [3, 'no'])).success).toBe(false)
    expect(missingRequired(inst, answer([7, 'yes'], [3, 'no']))).toEqual([])
  })

  it('stores the answers by canonical side when the pair was shown the other way round', () => {
    const { inst } = built()
    const shown = answer([7, 'yes'], [3, 'no'])
    expect(inst.toCanonical(shown, { swapped: true })).toEqual({ ...answer([3, 'no'], [7, 'yes']), better: 'b' })
    expect(inst.toCanonical(shown, { swapped: false })).toEqual(shown)
  })

  it('is compared per side, each question its own field at its level', () => {
    const { inst } = built()
    const obs = inst.observe(answer([7, 'yes'], [3, 'no']), { pair_id: 'p1', topic: 't', a: { markdown: 'A', origin: 'human' }, b: { markdown: 'B', origin: 'ai' } } as never)
    expect(obs).toEqual([
      { unit: 'p1', values: { better: 'a' } },
      { unit: 'p1:a', values: { 'scores.novelty': 7, 'scores.feasible': 'yes' } },
      { unit: 'p1:b', values: { 'scores.novelty': 3, 'scores.feasible': 'no' } }
    ])
    expect(inst.fields.map((f) => [f.name, f.level])).toEqual([['scores.novelty', 'ordinal'], ['scores.feasible', 'nominal'], ['better', 'nominal']])
  })

  it('reads a model’s answer with the sides in any case and numbers as text, and asks for it in words', () => {
    const { d, inst } = built()
    const read = inst.fromModelAnswer!({ scores: { A: { novelty: '8', feasible: 'Yes' }, B: { novelty: 2, feasible: 'no' } }, better: 'A' })
    expect(inst.judgement.parse(read)).toMatchObject({ scores: { a: { novelty: 8, feasible: 'yes' }, b: { novelty: 2, feasible: 'no' } }, better: 'a' })
    const words = fieldInstructions(d)
    expect(words).toContain('"scores" (Each proposal): an object {"a": {...}, "b": {...}} with the same fields for proposal A and for proposal B:')
    expect(words).toContain('  - "novelty" (Novelty): a whole number from 1 to 10.')
  })

  it('is refused on a single text, with a side-naming field inside, or a field declared twice', () => {
    const text = declare([GROUP], 'text')
    expect(text.ok ? [] : text.problems.map((p) => [p.field, p.message])).toContainEqual(['fields.0.kind', 'only a pair has sides to ask about'])
    const bad = declare([{ ...GROUP, fields: [...GROUP.fields, { ...BETTER }, { name: 'novelty', kind: 'text', label: 'Again' }] }])
    const byField = Object.fromEntries(bad.ok ? [] : bad.problems.map((p) => [p.field, p.message]))
    expect(byField['fields.0.fields.3.swap']).toBe('a field asked of each side names no side')
    expect(byField['fields.0.fields.4.name']).toBe('the field "novelty" is declared twice')
  })
})
