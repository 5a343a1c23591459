import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ANTHROPIC_DEFAULT_MAX_TOKENS, ANTHROPIC_THINKING_BUDGET, usesAdaptiveThinking } from '../../../src/main/providers/anthropic'
import { startFakeProviders, type FakeProviders } from '../../fakes'
import { KEYS, judge, providerError, providerFor } from './helpers'

const SCHEMA = { type: 'object', properties: { verdict: { type: 'string' } }, required: ['verdict'], additionalProperties: false }

let fake: FakeProviders
beforeAll(async () => {
  fake = await startFakeProviders({ apiKeys: { anthropic: KEYS.anthropic } })
})
afterAll(async () => {
  await fake.close()
})
beforeEach(() => fake.reset())

const req = { system: 'Judge.', user: 'Score it.', timeoutMs: 5_000 }

describe('anthropic messages request', () => {
  it('sends the key, the system prompt as a top-level field, and a max_tokens', async () => {
    await providerFor(fake, 'anthropic').complete(judge('anthropic', { temperature: 0.3 }), req)
    const sent = fake.requestsTo('anthropic.messages')[0]!
    expect(sent.headers['authorization']).toBe(`Bearer ${KEYS.anthropic}`)
    expect(sent.headers['anthropic-version']).toBeDefined()
    // No temperature: the API version the SDK speaks has none.
    expect(sent.body).toEqual({ model: 'claude-haiku-4-5', max_tokens: ANTHROPIC_DEFAULT_MAX_TOKENS, system: 'Judge.', messages: [{ role: 'user', content: 'Score it.' }] })
  })

  it('gives a budgeted-thinking model a thinking budget on top of the answer tokens', async () => {
    await providerFor(fake, 'anthropic').complete(judge('anthropic', { reasoningEffort: 'medium', maxTokens: 1000 }), req)
    const body = fake.requestsTo('anthropic.messages')[0]!.body as Record<string, unknown>
    expect(body['thinking']).toEqual({ type: 'enabled', budget_tokens: ANTHROPIC_THINKING_BUDGET.medium })
    expect(body['max_tokens']).toBe(1000 + 8192)
  })

  it('sends no thinking for minimal effort on a budgeted-thinking model', async () => {
    await providerFor(fake, 'anthropic').complete(judge('anthropic', { reasoningEffort: 'minimal', maxTokens: 1000 }), req)
    const body = fake.requestsTo('anthropic.messages')[0]!.body as Record<string, unknown>
    expect(body).not.toHaveProperty('thinking')
    expect(body['max_tokens']).toBe(1000)
  })

  it('uses adaptive thinking steered by effort where budgets are deprecated', async () => {
    expect(usesAdaptiveThinking('claude-opus-4-6')).toBe(true)
    expect(usesAdaptiveThinking('claude-sonnet-5-5')).toBe(true)
    expect(usesAdaptiveThinking('claude-haiku-4-5-20251001')).toBe(false)
    expect(usesAdaptiveThinking('claude-opus-4-20250514')).toBe(false)
    await providerFor(fake, 'anthropic').complete(judge('anthropic', { model: 'claude-opus-4-6', reasoningEffort: 'high', maxTokens: 2000, structuredOutput: true }), {
      ...req,
      jsonSchema: SCHEMA
    })
    const body = fake.requestsTo('anthropic.messages')[0]!.body as Record<string, unknown>
    expect(body['thinking']).toEqual({ type: 'adaptive' })
    expect(body['output_config']).toEqual({ effort: 'high', format: { type: 'json_schema', schema: SCHEMA } })
    expect(body['max_tokens']).toBe(2000 + ANTHROPIC_THINKING_BUDGET.high)
  })

  it('asks for structured output through output_config.format', async () => {
    await providerFor(fake, 'anthropic').complete(judge('anthropic', { structuredOutput: true }), { ...req, jsonSchema: SCHEMA })
    const body = fake.requestsTo('anthropic.messages')[0]!.body as Record<string, unknown>
    expect(body['output_config']).toEqual({ format: { type: 'json_schema', schema: SCHEMA } })
  })

  it('is refused by a server that checks the key, with the key redacted', async () => {
    const wrong = 'ant-wrong-key-0123456789abcdef'
    const err = await providerError(providerFor(fake, 'anthropic', wrong).complete(judge('anthropic'), req))
    expect(err.kind).toBe('auth')
    expect(err.code).toBe('authentication_error')
    expect(err.message).not.toContain(wrong)
  })

  it('reads 529 overloaded as a retryable server error with its type as code', async () => {
    fake.setScript({ faults: [{ fault: { type: 'status', status: 529, headers: { 'retry-after': '7' }, message: 'Overloaded' } }] })
    const err = await providerError(providerFor(fake, 'anthropic').complete(judge('anthropic'), req))
    expect(err).toMatchObject({ kind: 'server', status: 529, code: 'overloaded_error', retryAfterMs: 7000, retryable: true })
  })
})

describe('anthropic message batches', () => {
  const items = [
    { customId: 'p-1', request: { system: 'Judge.', user: 'first', timeoutMs: 1 } },
    { customId: 'p-2', request: { user: 'second', timeoutMs: 1 } }
  ]

  it('creates one batch of message params and reads the results JSONL by custom id', async () => {
    fake.setScript({
      batchPollsUntilDone: 2,
      responder: (p) => (p.user === 'second' ? { error: { status: 529, message: 'Overloaded' } } : { text: `answer ${p.user}`, finish: 'length', inputTokens: 9, outputTokens: 8 })
    })
    const batch = providerFor(fake, 'anthropic').batch!
    const { batchId } = await batch.submit(judge('anthropic', { maxTokens: 500 }), items)
    expect(batchId).toMatch(/^msgbatch_/)
    expect(fake.requestsTo('anthropic.batches.create')[0]!.body).toEqual({
      requests: [
        { custom_id: 'p-1', params: { model: 'claude-haiku-4-5', max_tokens: 500, system: 'Judge.', messages: [{ role: 'user', content: 'first' }] } },
        { custom_id: 'p-2', params: { model: 'claude-haiku-4-5', max_tokens: 500, messages: [{ role: 'user', content: 'second' }] } }
      ]
    })

    await expect(batch.poll(batchId)).resolves.toEqual({ state: 'running', done: 0, total: 2 })
    await expect(batch.poll(batchId)).resolves.toEqual({ state: 'done', done: 2, total: 2 })
    const results = await batch.results(batchId)
    expect(results).toEqual([
      { customId: 'p-1', response: { text: 'answer first', inputTokens: 9, outputTokens: 8, finishReason: 'max_tokens', truncated: true, modelVersion: 'claude-haiku-4-5' } },
      { customId: 'p-2', error: { kind: 'server', message: 'anthropic: Overloaded' } }
    ])
    expect(fake.count('anthropic.batches.results')).toBe(1)
  })

  it('refuses results before the batch has ended', async () => {
    fake.setScript({ batchPollsUntilDone: 5 })
    const batch = providerFor(fake, 'anthropic').batch!
    const { batchId } = await batch.submit(judge('anthropic'), items)
    await expect(batch.results(batchId)).rejects.toMatchObject({ kind: 'bad_request' })
    expect(fake.count('anthropic.batches.results')).toBe(0)
  })
})
