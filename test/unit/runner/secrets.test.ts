import { describe, expect, it } from 'vitest'
import { EnvKeyStore, envVarFor, keyRefFor, LayeredKeyStore, MemoryKeyStore } from '../../../src/main/secrets'

describe('key references', () => {
  it('name one key per provider, and a named key for compatible endpoints', () => {
    expect(keyRefFor('openai')).toBe('openai')
    expect(keyRefFor('google')).toBe('google')
    expect(keyRefFor('openai-compatible')).toBeNull()
    expect(keyRefFor('openai-compatible', 'xai')).toBe('named:XAI')
    expect(keyRefFor('anthropic', 'second_account')).toBe('named:SECOND_ACCOUNT')
    expect(() => keyRefFor('openai', 'bad-name')).toThrow()
    expect(envVarFor('google')).toEqual(['GEMINI_API_KEY', 'GOOGLE_API_KEY'])
    expect(envVarFor('named:XAI')).toEqual(['ASSAY_KEY_XAI'])
  })
})

describe('key stores', () => {
  const env = { OPENAI_API_KEY: ' sk-env-1 ', GOOGLE_API_KEY: 'AIza-g', ASSAY_KEY_XAI: 'xai-1', OTHER: 'x' }

  it('read the environment, list where keys are without the keys, and refuse writes', async () => {
    const store = new EnvKeyStore(env)
    expect(await store.get('openai')).toBe('sk-env-1')
    expect(await store.get('google')).toBe('AIza-g')
    expect(await store.get('anthropic')).toBeUndefined()
    expect(await store.get('named:XAI')).toBe('xai-1')
    const listed = await store.list()
    expect(listed).toEqual([
      { ref: 'openai', source: 'environment (OPENAI_API_KEY)' },
      { ref: 'google', source: 'environment (GOOGLE_API_KEY)' },
      { ref: 'named:XAI', source: 'environment (ASSAY_KEY_XAI)' }
    ])
    expect(JSON.stringify(listed)).not.toContain('sk-env-1')
    await expect(store.set('openai', 'x')).rejects.toThrow('environment variables')
  })

  it('read every key from one variable with --api-key-env', async () => {
    const store = new EnvKeyStore({ ...env, MY_KEY: 'k-2' }, 'MY_KEY')
    expect(await store.get('openai')).toBe('k-2')
    expect(await store.get('named:XAI')).toBe('k-2')
  })

  it('read the process environment as it is at each read, not as it was when the store was made', async () => {
    const saved = process.env
    try {
      process.env = { ASSAY_KEY_LATER: 'first' }
      const store = new EnvKeyStore()
      process.env = { ASSAY_KEY_LATER: 'second' }
      expect(await store.get('named:LATER')).toBe('second')
      delete process.env.ASSAY_KEY_LATER
      expect(await store.get('named:LATER')).toBeUndefined()
    } finally {
      process.env = saved
    }
  })

  it('layer a writable store before the environment', async () => {
    const store = new LayeredKeyStore(new MemoryKeyStore({ backend: 'os-keychain', encrypted: true }), new EnvKeyStore(env))
    await store.set('openai', 'sk-typed')
    expect(await store.get('openai')).toBe('sk-typed')
    expect(await store.get('named:XAI')).toBe('xai-1')
    expect((await store.list()).map((k) => `${k.ref}:${k.source}`)).toEqual([
      'openai:os-keychain',
      'google:environment (GOOGLE_API_KEY)',
      'named:XAI:environment (ASSAY_KEY_XAI)'
    ])
    await store.delete('openai')
    expect(await store.get('openai')).toBe('sk-env-1')
    expect(store.info).toEqual({ backend: 'os-keychain', encrypted: true, warning: null })
  })
})
