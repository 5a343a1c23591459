import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startFakeProviders, type FakeProviders } from '../../fakes'
import { KEYS, judge, providerError, providerFor } from './helpers'

const STRICT_SCHEMA = {
  type: 'object',
  properties: { match: { type: 'integer' }, reason: { type: 'string' } },
  required: ['match', 'reason'],
  additionalProperties: false
}
const LOOSE_SCHEMA = { type: 'object', properties: { match: { type: 'integer' }, reason: { type: 'string' } }, required: ['match'] }

let fake: FakeProviders
beforeAll(async () => {
  fake = await startFakeProviders({ apiKeys: { openai: KEYS.openai } })
})
afterAll(async () => {
  await fake.close()
})
beforeEach(() => fake.reset())

const req = { system: 'Judge.', user: 'Score it.', timeoutMs: 5_000 }

describe('openai chat completions request', () => {
  it('sends the key as a bearer token, the messages, and the sampling settings of a chat model', async () => {
    await providerFor(fake, 'openai').complete(judge('openai', { temperature: 0.2, maxTokens: 300 }), req)
    const sent = fake.requestsTo('openai.chat')[0]!
    expect(sent.headers['authorization']).toBe(`Bearer ${KEYS.openai}`)
    expect(sent.body).toEqual({
      model: 'gpt-4.1-mini',
      messages: [
        { role: 'system', content: 'Judge.' },
        { role: 'user', content: 'Score it.' }
      ],
      temperature: 0.2,
      max_completion_tokens: 300
    })
  })

  it('asks a reasoning model for its effort and leaves out the temperature it would refuse', async () => {
    await providerFor(fake, 'openai').complete(judge('openai', { model: 'o4-mini', reasoningEffort: 'high', temperature: 0 }), req)
    const body = fake.requestsTo('openai.chat')[0]!.body as Record<string, unknown>
    expect(body['reasoning_effort']).toBe('high')
    expect(body).not.toHaveProperty('temperature')
  })

  it('requests strict json_schema output when the schema allows it', async () => {
    await providerFor(fake, 'openai').complete(judge('openai', { structuredOutput: true }), { ...req, jsonSchema: STRICT_SCHEMA })
    const body = fake.requestsTo('openai.chat')[0]!.body as Record<string, unknown>
    expect(body['response_format']).toEqual({ type: 'json_schema', json_schema: { name: 'answer', schema: STRICT_SCHEMA, strict: true } })
  })

  it('sends a schema strict mode would reject as non-strict guidance', async () => {
    await providerFor(fake, 'openai').complete(judge('openai', { structuredOutput: true }), { ...req, jsonSchema: LOOSE_SCHEMA })
    const body = fake.requestsTo('openai.chat')[0]!.body as { response_format: { json_schema: { strict: boolean } } }
    expect(body.response_format.json_schema.strict).toBe(false)
  })

  it('asks for a JSON object when structured output has no schema, and for nothing when it is off', async () => {
    const provider = providerFor(fake, 'openai')
    await provider.complete(judge('openai', { structuredOutput: true }), req)
    await provider.complete(judge('openai'), { ...req, jsonSchema: STRICT_SCHEMA })
    const [withFlag, without] = fake.requestsTo('openai.chat').map((r) => r.body as Record<string, unknown>)
    expect(withFlag!['response_format']).toEqual({ type: 'json_object' })
    expect(without).not.toHaveProperty('response_format')
  })

  it('treats a 429 for exhausted quota as not worth retrying', async () => {
    fake.setScript({
      faults: [{ fault: { type: 'status', status: 429, rawBody: JSON.stringify({ error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' } }), contentType: 'application/json' } }]
    })
    const err = await providerError(providerFor(fake, 'openai').complete(judge('openai'), req))
    expect(err.kind).toBe('rate_limit')
    expect(err.code).toBe('insufficient_quota')
    expect(err.retryable).toBe(false)
  })

  it('is refused by a server that checks the key, with the key redacted', async () => {
    const wrong = 'sk-wrong-key-abcdef0123456789'
    const err = await providerError(providerFor(fake, 'openai', wrong).complete(judge('openai'), req))
    expect(err.kind).toBe('auth')
    expect(err.message).toContain('Incorrect API key provided: [redacted]')
    expect(err.message).not.toContain(wrong)
  })
})

describe('openai batch', () => {
  const items = [
    { customId: 'item-1', request: { user: 'first', timeoutMs: 1 } },
    { customId: 'item-2', request: { system: 'Judge.', user: 'second', timeoutMs: 1 } },
    { customId: 'item-3', request: { user: 'third', timeoutMs: 1 } }
  ]

  it('uploads one JSONL file of chat requests, creates one batch, and maps the output back by custom id', async () => {
    fake.setScript({
      batchPollsUntilDone: 2,
      responder: (p) => (p.user === 'third' ? { error: { status: 400, message: 'bad item' } } : { text: `answer ${p.user}`, inputTokens: 3, outputTokens: 2 })
    })
    const batch = providerFor(fake, 'openai').batch!
    const { batchId } = await batch.submit(judge('openai', { temperature: 0 }), items)
    expect(batchId).toMatch(/^batch_/)
    expect(fake.count('openai.files.upload')).toBe(1)
    expect(fake.count('openai.batches.create')).toBe(1)

    const lines = fake.requestsTo('openai.files.upload')[0]!.rawBody.split(/\r?\n/).filter((l) => l.startsWith('{'))
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([
      { custom_id: 'item-1', method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'first' }], temperature: 0 } },
      { custom_id: 'item-2', method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4.1-mini', messages: [{ role: 'system', content: 'Judge.' }, { role: 'user', content: 'second' }], temperature: 0 } },
      { custom_id: 'item-3', method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'third' }], temperature: 0 } }
    ])
    expect((fake.requestsTo('openai.batches.create')[0]!.body as Record<string, unknown>)['completion_window']).toBe('24h')

    await expect(batch.poll(batchId)).resolves.toEqual({ state: 'running', done: 0, total: 3 })
    await expect(batch.poll(batchId)).resolves.toEqual({ state: 'done', done: 3, total: 3 })

    const results = await batch.results(batchId)
    const byId = new Map(results.map((r) => [r.customId, r]))
    expect(byId.get('item-1')?.response).toMatchObject({ text: 'answer first', inputTokens: 3, outputTokens: 2, truncated: false })
    expect(byId.get('item-2')?.response?.text).toBe('answer second')
    expect(byId.get('item-3')?.error?.kind).toBe('bad_request')
    expect(byId.get('item-3')?.error?.message).toContain('bad item')
    expect(results).toHaveLength(3)
    // One output file and one error file, each read once.
    expect(fake.count('openai.files.content')).toBe(2)
  })

  it('refuses results before the batch has ended', async () => {
    fake.setScript({ batchPollsUntilDone: 5 })
    const batch = providerFor(fake, 'openai').batch!
    const { batchId } = await batch.submit(judge('openai'), items)
    const err = await providerError(batch.results(batchId))
    expect(err.kind).toBe('bad_request')
    expect(fake.count('openai.files.content')).toBe(0)
  })

  it('rejects custom ids the batch APIs would not accept, before sending anything', async () => {
    const batch = providerFor(fake, 'openai').batch!
    const err = await providerError(batch.submit(judge('openai'), [{ customId: 'has space', request: { user: 'x', timeoutMs: 1 } }]))
    expect(err.kind).toBe('bad_request')
    await expect(batch.submit(judge('openai'), [items[0]!, items[0]!])).rejects.toMatchObject({ kind: 'bad_request' })
    expect(fake.requests).toHaveLength(0)
  })
})
