import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { generateContentToResponse, thinkingConfig } from '../../../src/main/providers/google'
import { startFakeProviders, type FakeProviders } from '../../fakes'
import { KEYS, judge, providerError, providerFor } from './helpers'

const SCHEMA = { type: 'object', properties: { confirmed: { type: 'boolean' } }, required: ['confirmed'] }

let fake: FakeProviders
beforeAll(async () => {
  fake = await startFakeProviders({ apiKeys: { google: KEYS.google } })
})
afterAll(async () => {
  await fake.close()
})
beforeEach(() => fake.reset())

const req = { system: 'Judge.', user: 'Score it.', timeoutMs: 5_000 }

describe('gemini generateContent request', () => {
  it('sends the key in x-goog-api-key and the prompt as contents plus systemInstruction', async () => {
    await providerFor(fake, 'google').complete(judge('google', { temperature: 0, maxTokens: 256 }), req)
    const sent = fake.requestsTo('google.generateContent')[0]!
    expect(sent.path).toBe('/google/v1beta/models/gemini-2.5-flash:generateContent')
    expect(sent.headers['x-goog-api-key']).toBe(KEYS.google)
    expect(sent.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Score it.' }] }],
      systemInstruction: { role: 'user', parts: [{ text: 'Judge.' }] },
      generationConfig: { temperature: 0, maxOutputTokens: 256 }
    })
  })

  it('asks for JSON with the schema, and a thinking budget on Gemini 2.5', async () => {
    await providerFor(fake, 'google').complete(judge('google', { structuredOutput: true, reasoningEffort: 'low' }), { ...req, jsonSchema: SCHEMA })
    const body = fake.requestsTo('google.generateContent')[0]!.body as { generationConfig: Record<string, unknown> }
    expect(body.generationConfig).toEqual({ responseMimeType: 'application/json', responseJsonSchema: SCHEMA, thinkingConfig: { thinkingBudget: 1024 } })
  })

  it('uses thinking levels after Gemini 2 and respects the 2.5 Pro floor', () => {
    expect(thinkingConfig('gemini-3-pro-preview', 'high')).toEqual({ thinkingLevel: 'HIGH' })
    expect(thinkingConfig('gemini-2.5-pro', 'minimal')).toEqual({ thinkingBudget: 128 })
    expect(thinkingConfig('models/gemini-2.5-flash', 'minimal')).toEqual({ thinkingBudget: 0 })
  })

  it('takes the retry delay from RetryInfo in the body when there is no header', async () => {
    const body = JSON.stringify({
      error: {
        code: 429,
        message: 'Resource has been exhausted',
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '37s' }]
      }
    })
    fake.setScript({ faults: [{ fault: { type: 'status', status: 429, rawBody: body, contentType: 'application/json' } }] })
    const err = await providerError(providerFor(fake, 'google').complete(judge('google'), req))
    expect(err).toMatchObject({ kind: 'rate_limit', status: 429, retryAfterMs: 37_000, code: 'RESOURCE_EXHAUSTED' })
    expect(err.message).toContain('Resource has been exhausted')
  })

  it('is refused by a server that checks the key, with the key redacted', async () => {
    const wrong = 'AIzaWrongKey0123456789abcdefghij'
    const err = await providerError(providerFor(fake, 'google', wrong).complete(judge('google'), req))
    expect(err.kind).toBe('auth')
    expect(err.message).not.toContain(wrong)
  })
})

describe('gemini response mapping', () => {
  it('leaves thought parts out of the text and counts thought tokens as output', () => {
    const res = generateContentToResponse({
      candidates: [{ content: { parts: [{ text: 'thinking…', thought: true }, { text: '{"a":' }, { text: '1}' }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, thoughtsTokenCount: 40 },
      modelVersion: 'gemini-2.5-flash-001'
    })
    expect(res).toEqual({ text: '{"a":1}', inputTokens: 10, outputTokens: 45, finishReason: 'STOP', truncated: false, modelVersion: 'gemini-2.5-flash-001' })
  })

  it('reports a blocked prompt as an empty answer with the block reason', () => {
    const res = generateContentToResponse({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 3 } })
    expect(res).toMatchObject({ text: '', finishReason: 'PROMPT_BLOCKED:SAFETY', inputTokens: 3, outputTokens: null })
  })

  it('calls a response with neither candidates nor feedback malformed', () => {
    expect(() => generateContentToResponse({ usageMetadata: {} })).toThrow(expect.objectContaining({ kind: 'malformed' }))
  })
})

describe('gemini batch', () => {
  const items = [
    { customId: 'g-1', request: { system: 'Judge.', user: 'first', timeoutMs: 1 } },
    { customId: 'g-2', request: { user: 'second', timeoutMs: 1 } }
  ]

  it('creates one batch of inlined requests, polls its stats and maps inlined responses by metadata key', async () => {
    fake.setScript({
      batchPollsUntilDone: 2,
      responder: (p) => (p.user === 'second' ? { error: { status: 429, message: 'quota' } } : { text: `answer ${p.user}`, inputTokens: 4, outputTokens: 2 })
    })
    const batch = providerFor(fake, 'google').batch!
    const { batchId } = await batch.submit(judge('google', { maxTokens: 64 }), items)
    expect(batchId).toMatch(/^batches\//)
    const created = fake.requestsTo('google.batches.create')[0]!
    expect(created.path).toBe('/google/v1beta/models/gemini-2.5-flash:batchGenerateContent')
    expect(created.body).toEqual({
      batch: {
        displayName: 'assay',
        inputConfig: {
          requests: {
            requests: [
              {
                request: { contents: [{ role: 'user', parts: [{ text: 'first' }] }], systemInstruction: { role: 'user', parts: [{ text: 'Judge.' }] }, generationConfig: { maxOutputTokens: 64 } },
                metadata: { key: 'g-1' }
              },
              { request: { contents: [{ role: 'user', parts: [{ text: 'second' }] }], generationConfig: { maxOutputTokens: 64 } }, metadata: { key: 'g-2' } }
            ]
          }
        }
      }
    })

    // A fresh provider, as after a restart: counts and ids must come from the API, not from memory.
    const later = providerFor(fake, 'google').batch!
    await expect(later.poll(batchId)).resolves.toEqual({ state: 'running', done: 0, total: 2 })
    await expect(later.poll(batchId)).resolves.toEqual({ state: 'done', done: 2, total: 2 })
    await expect(later.results(batchId)).resolves.toEqual([
      { customId: 'g-1', response: { text: 'answer first', inputTokens: 4, outputTokens: 2, finishReason: 'STOP', truncated: false, modelVersion: 'gemini-2.5-flash-001' } },
      { customId: 'g-2', error: { kind: 'rate_limit', message: 'google: quota' } }
    ])
    expect(fake.count('google.batches.get')).toBe(3)
  })

  it('refuses results before the batch has ended', async () => {
    fake.setScript({ batchPollsUntilDone: 5 })
    const batch = providerFor(fake, 'google').batch!
    const { batchId } = await batch.submit(judge('google'), items)
    await expect(batch.results(batchId)).rejects.toMatchObject({ kind: 'bad_request' })
  })
})
