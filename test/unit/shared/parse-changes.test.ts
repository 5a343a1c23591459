import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ITEM_KINDS, parseItemPayload, payloadAsRead, type ItemKind } from '../../../src/shared/items/kinds'
import { parseCanChange } from '../../../src/shared/items/parse-changes'

describe('parseCanChange', () => {
  it('finds nothing to change in loose objects of plain leaves, however nested', () => {
    const schema = z.looseObject({
      s: z.string().min(1),
      n: z.number().int().nonnegative().nullish(),
      e: z.enum(['x', 'y']).optional(),
      l: z.literal('a'),
      b: z.boolean().nullable(),
      u: z.union([z.string(), z.array(z.string())]),
      r: z.record(z.string(), z.unknown()),
      t: z.tuple([z.string()], z.number()),
      i: z.intersection(z.looseObject({ a: z.string() }), z.looseObject({ b: z.string() })),
      nested: z.array(z.looseObject({ deep: z.array(z.number()) })),
      strict: z.strictObject({ k: z.string() })
    })
    expect(parseCanChange(schema)).toBe(false)
  })

  it.each([
    ['a default', z.string().default('')],
    ['a prefault', z.string().prefault('')],
    ['a transform', z.string().transform((s) => s.length)],
    ['a pipe', z.string().pipe(z.string())],
    ['a coercion', z.coerce.number()],
    ['a trim', z.string().trim()],
    ['a case change', z.string().toLowerCase()],
    ['a catch', z.string().catch('x')],
    ['a plain object, which strips unknown keys', z.object({ k: z.string() })],
    ['a lazy schema', z.lazy(() => z.string())]
  ])('counts %s as changing, alone and nested deep in loose objects', (_, inner) => {
    expect(parseCanChange(inner)).toBe(true)
    const nested = z.looseObject({ a: z.string(), list: z.array(z.looseObject({ x: z.union([z.number(), inner.optional()]) })).nullish() })
    expect(parseCanChange(nested)).toBe(true)
  })

  it('agrees with parsing: a payload of a kind found unchanging parses to an equal copy', () => {
    const samples: Partial<Record<ItemKind, Record<string, unknown>>> = {
      'proposal-pair': {
        pair_id: 'p1',
        topic: null,
        a: { markdown: '# A', origin: 'human', extra: { kept: [1, 2] } },
        b: { markdown: '# B', generator: 'gpt', citations: 3 },
        label: 'a_much_better',
        unknown_field: 'kept'
      },
      idea: { idea: 'x', keywords: ['a', 'b'], scores: { novelty: 3, nested: { a: 1 } }, other: true },
      'idea-pair': { idea_a: 'x', idea_b: 'y', keywords: 'k' },
      'research-question': { question_id: 'q', question: 'why?', background: null, more: [1] }
    }
    const unchanging = (Object.keys(ITEM_KINDS) as ItemKind[]).filter((kind) => !parseCanChange(ITEM_KINDS[kind]))
    // Every kind found unchanging has a sample here, so a kind that later gains one is tested.
    expect(unchanging.sort()).toEqual(Object.keys(samples).sort())
    for (const kind of unchanging) {
      const raw = samples[kind] as Record<string, unknown>
      const parsed = parseItemPayload(kind, raw)
      expect(parsed.success, kind).toBe(true)
      expect(parsed.data, kind).toEqual(raw)
      expect(payloadAsRead(kind, raw), kind).toBe(raw)
    }
  })

  it('applies the defaults of a kind that has them, and reads a payload that no longer parses as stored', () => {
    const set = { set_id: 's', task_id: 't', hypotheses: [{ id: 'h', statement: 'x' }] }
    expect(parseCanChange(ITEM_KINDS['hypothesis-set'])).toBe(true)
    expect(payloadAsRead('hypothesis-set', set)).toEqual({ ...set, hypotheses: [{ id: 'h', statement: 'x', mechanism: '', prediction: '' }] })
    const broken = { set_id: 's' }
    expect(payloadAsRead('hypothesis-set', broken)).toBe(broken)
  })
})
