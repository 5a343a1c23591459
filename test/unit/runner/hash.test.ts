import { describe, expect, it } from 'vitest'
import { canonicalJson, requestHash } from '../../../src/main/runner'
import { sha256Hex } from '../../../src/shared/protocol'
import type { JudgeConfig } from '../../../src/main/providers'

const base: JudgeConfig = { provider: 'openai', model: 'gpt-4.1-mini' }
const req = { system: 'S', user: 'U', trial: 0 }

describe('canonical JSON', () => {
  it('sorts keys at every depth and drops undefined fields', () => {
    expect(canonicalJson({ b: 1, a: [1, { d: undefined, c: 'x' }], e: null })).toBe('{"a":[1,{"c":"x"}],"b":1,"e":null}')
    expect(canonicalJson({ x: 1, y: 2 })).toBe(canonicalJson({ y: 2, x: 1 }))
  })
})

describe('request hash', () => {
  it('is sha256 of the canonical description of the request (reference value)', () => {
    const described =
      '{"baseUrl":null,"jsonSchema":null,"model":"gpt-4.1-mini","options":{"maxTokens":null,"reasoningEffort":null,"structuredOutput":false,"temperature":null},"provider":"openai","system":"S","trial":0,"user":"U","v":1}'
    expect(requestHash(base, req)).toBe(sha256Hex(described))
    expect(requestHash(base, req)).toBe('9a1fd341f6bac673adb33751a14375732545e33d6228746774541113771f75d4')
  })

  it('changes with everything that can change the answer, and with the trial', () => {
    const h = requestHash(base, req)
    const variants = [
      requestHash({ ...base, provider: 'openai-compatible' }, req),
      requestHash({ ...base, model: 'gpt-4.1' }, req),
      requestHash({ ...base, baseUrl: 'http://127.0.0.1:1/v1' }, req),
      requestHash({ ...base, temperature: 0 }, req),
      requestHash({ ...base, reasoningEffort: 'low' }, req),
      requestHash({ ...base, maxTokens: 100 }, req),
      requestHash({ ...base, structuredOutput: true }, req),
      requestHash(base, { ...req, system: 'S ' }),
      requestHash(base, { ...req, user: 'U\n' }),
      requestHash(base, { user: 'U', trial: 0 }),
      requestHash(base, { ...req, trial: 1 })
    ]
    expect(new Set([h, ...variants]).size).toBe(variants.length + 1)
  })

  it('ignores what cannot change the answer: the company label, and a schema when structured output is off', () => {
    const h = requestHash(base, req)
    expect(requestHash({ ...base, company: 'someone' }, req)).toBe(h)
    expect(requestHash(base, { ...req, jsonSchema: { type: 'object' } })).toBe(h)
    expect(requestHash({ ...base, structuredOutput: true }, { ...req, jsonSchema: { type: 'object' } })).not.toBe(requestHash({ ...base, structuredOutput: true }, req))
  })
})
