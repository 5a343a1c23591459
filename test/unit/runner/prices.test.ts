import { afterAll, describe, expect, it } from 'vitest'
import { bestPrice, costOf, DEFAULT_PRICES, estimatePlan, priceFor, seedDefaultPrices, setPrice, type Judge, type Plan } from '../../../src/main/runner'
import { Project } from '../../../src/main/store/project'
import { tempDir } from '../../support/tmp'

const tmp = tempDir()
afterAll(() => tmp.cleanup())

describe('prices', () => {
  it('price a dated snapshot as its base model, the longest listed name first', () => {
    expect(bestPrice(DEFAULT_PRICES, 'openai', 'gpt-4.1-mini-2025-04-14')?.model).toBe('gpt-4.1-mini')
    expect(bestPrice(DEFAULT_PRICES, 'openai', 'gpt-4.1-2025-04-14')?.model).toBe('gpt-4.1')
    expect(bestPrice(DEFAULT_PRICES, 'google', 'models/gemini-2.5-flash-lite')?.model).toBe('gemini-2.5-flash-lite')
    expect(bestPrice(DEFAULT_PRICES, 'openai', 'gpt-4.10')).toBeUndefined()
    expect(bestPrice(DEFAULT_PRICES, 'anthropic', 'gpt-4.1')).toBeUndefined()
  })

  it('cost tokens at list price, and at the batch discount', () => {
    const price = { provider: 'openai', model: 'm', inputPerMtok: 2, outputPerMtok: 8, batchDiscount: 0.5 }
    expect(costOf(price, 1_000_000, 500_000, false)).toBe(6)
    expect(costOf(price, 1_000_000, 500_000, true)).toBe(3)
    expect(costOf(price, null, 10, false)).toBeNull()
    expect(costOf(undefined, 10, 10, false)).toBeNull()
  })

  it('take the project’s table over the defaults, and keep edits when defaults are seeded again', async () => {
    const project = await Project.create(tmp.file('prices.assay'))
    expect(priceFor(project.db, 'openai', 'gpt-4.1')).toMatchObject({ inputPerMtok: 2, source: 'default' })
    project.write((db) => {
      seedDefaultPrices(db)
      setPrice(db, { provider: 'openai', model: 'gpt-4.1', inputPerMtok: 1, outputPerMtok: 4, batchDiscount: 0.5 })
      seedDefaultPrices(db)
    })
    expect(priceFor(project.db, 'openai', 'gpt-4.1-2025-04-14')).toMatchObject({ inputPerMtok: 1, outputPerMtok: 4, source: 'project' })
    expect(priceFor(project.db, 'openai-compatible', 'llama-local')).toBeUndefined()
    project.close()
  })
})

describe('dry-run estimate', () => {
  const judge = (options: Judge['options']): Judge => ({
    id: 1,
    name: 'j',
    provider: 'openai',
    model: 'gpt-4.1',
    baseUrl: null,
    company: null,
    effectiveCompany: 'openai',
    options,
    createdAt: ''
  })
  const call = (user: string, format: 'json' | 'letter', hash: string) => ({
    itemId: 1,
    externalId: 'x',
    trial: 0,
    orderIndex: 0,
    display: {},
    prompt: { system: 'sys!', user, template: 't@1', format },
    hash
  })

  it('counts four characters a token in, the assumed answer out, and nothing for cached calls', async () => {
    const project = await Project.create(tmp.file('estimate.assay'))
    project.write(() => project.db.prepare(`INSERT INTO response_cache (request_hash, raw_answer) VALUES ('cached', 'x')`).run())
    const plan: Plan = { items: 3, skipped: [], calls: [call('u'.repeat(396), 'json', 'a'), call('v'.repeat(9), 'letter', 'b'), call('w', 'json', 'cached')] }
    const e = estimatePlan(project.db, judge({}), plan, false)
    // (4 + 396) / 4 = 100 and ceil(13 / 4) = 4 tokens in; 1500 + 20 out.
    expect(e).toMatchObject({ calls: 3, cached: 1, toSend: 2, inputTokens: 104, outputTokens: 1520 })
    expect(e.costUsd).toBeCloseTo((104 * 2 + 1520 * 8) / 1e6, 15)
    // A judge's own answer limit and its reasoning effort replace the assumption.
    expect(estimatePlan(project.db, judge({ maxTokens: 50, reasoningEffort: 'low' }), plan, true)).toMatchObject({ outputTokens: 2 * (50 + 1024) })
    project.close()
  })
})
