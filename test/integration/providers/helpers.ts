import { expect } from 'vitest'
import { createProvider, ProviderError, type JudgeConfig, type Provider, type ProviderKind } from '../../../src/main/providers'
import type { FakeEndpoint, FakeProviders } from '../../fakes'

export const KEYS: Record<ProviderKind, string> = {
  openai: 'sk-test-openai-0123456789abcdef',
  anthropic: 'ant-test-key-0123456789abcdef',
  google: 'AIzaTest0123456789abcdefghijklmn',
  'openai-compatible': 'local-test-key-0123456789'
}

export const MODELS: Record<ProviderKind, string> = {
  openai: 'gpt-4.1-mini',
  anthropic: 'claude-haiku-4-5',
  google: 'gemini-2.5-flash',
  'openai-compatible': 'meta-llama/Llama-3.1-8B-Instruct'
}

/** The endpoint a plain `complete` call lands on, per provider. */
export const COMPLETE_ENDPOINT: Record<ProviderKind, FakeEndpoint> = {
  openai: 'openai.chat',
  anthropic: 'anthropic.messages',
  google: 'google.generateContent',
  'openai-compatible': 'compatible.chat'
}

export function providerFor(fake: FakeProviders, kind: ProviderKind, apiKey: string = KEYS[kind]): Provider {
  return createProvider(kind, { apiKey, baseUrl: fake.url(kind) })
}

export function judge(kind: ProviderKind, extra: Partial<JudgeConfig> = {}): JudgeConfig {
  return { provider: kind, model: MODELS[kind], ...extra }
}

/** Awaits a rejection and checks that it is a ProviderError. */
export async function providerError(p: Promise<unknown>): Promise<ProviderError> {
  try {
    await p
  } catch (e) {
    expect(e).toBeInstanceOf(ProviderError)
    return e as ProviderError
  }
  throw new Error('expected the call to fail')
}
