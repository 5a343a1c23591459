import { describe, expect, it } from 'vitest'
import { companyOf, sameCompany } from '../../../src/main/providers/companies'
import type { JudgeConfig } from '../../../src/main/providers'

const c = (provider: JudgeConfig['provider'], model: string, extra: Partial<JudgeConfig> = {}): string => companyOf({ provider, model, ...extra })

describe('companyOf', () => {
  it.each([
    ['openai', 'gpt-4.1-mini', 'openai'],
    ['openai', 'o3', 'openai'],
    ['openai', 'o4-mini-2025-04-16', 'openai'],
    ['openai', 'ft:gpt-4o-mini:acme::abc', 'openai'],
    ['openai-compatible', 'openai/gpt-oss-120b', 'openai'],
    ['anthropic', 'claude-opus-4-6', 'anthropic'],
    ['openai-compatible', 'anthropic/claude-sonnet-4.5', 'anthropic'],
    ['google', 'gemini-2.5-pro', 'google'],
    ['openai-compatible', 'google/gemma-3-27b-it', 'google'],
    ['openai-compatible', 'grok-4', 'xai'],
    ['openai-compatible', 'meta-llama/Llama-3.1-70B-Instruct', 'meta'],
    ['openai-compatible', 'llama3.1:8b', 'meta'],
    ['openai-compatible', 'mistral-large-latest', 'mistral'],
    ['openai-compatible', 'mixtral-8x7b', 'mistral'],
    ['openai-compatible', 'deepseek-reasoner', 'deepseek'],
    ['openai-compatible', 'deepseek-ai/DeepSeek-R1-Distill-Llama-70B', 'deepseek'],
    ['openai-compatible', 'Qwen/Qwen3-235B-A22B', 'alibaba'],
    ['openai-compatible', 'qwq-32b', 'alibaba'],
    ['openai-compatible', 'glm-4.6', 'zhipu'],
    ['openai-compatible', 'zai-org/GLM-4.5', 'zhipu'],
    ['openai-compatible', 'kimi-k2-instruct', 'moonshot'],
    ['openai-compatible', 'microsoft/phi-4', 'microsoft'],
    ['openai-compatible', 'command-r-plus', 'cohere']
  ] as const)('%s %s → %s', (provider, model, company) => {
    expect(c(provider, model)).toBe(company)
  })

  it('does not read a model name that merely contains a maker’s letters', () => {
    expect(c('openai-compatible', 'prologue-7b')).toBe('unknown')
    expect(c('openai-compatible', 'solar-pro')).toBe('unknown')
  })

  it('falls back to a first-party host, then to the provider, then to unknown', () => {
    expect(c('openai-compatible', 'my-model', { baseUrl: 'https://api.x.ai/v1' })).toBe('xai')
    expect(c('openai-compatible', 'my-model', { baseUrl: 'https://api.deepseek.com' })).toBe('deepseek')
    expect(c('anthropic', 'some-new-name')).toBe('anthropic')
    expect(c('openai-compatible', 'my-model', { baseUrl: 'http://127.0.0.1:8000/v1' })).toBe('unknown')
  })

  it('lets config override everything, and project rules override the built-in names', () => {
    expect(c('openai-compatible', 'llama-3.1-70b', { company: ' Acme ' })).toBe('acme')
    expect(companyOf({ provider: 'openai-compatible', model: 'llama-3.1-nemo-ft' }, [{ pattern: 'nemo-ft', company: 'nvidia' }])).toBe('nvidia')
    expect(companyOf({ provider: 'openai-compatible', model: 'house-model-2' }, [{ pattern: /^house-/, company: 'Ours' }])).toBe('ours')
  })
})

describe('sameCompany', () => {
  it('never pairs two unknowns', () => {
    expect(sameCompany('openai', 'openai')).toBe(true)
    expect(sameCompany('openai', 'google')).toBe(false)
    expect(sameCompany('unknown', 'unknown')).toBe(false)
  })
})
