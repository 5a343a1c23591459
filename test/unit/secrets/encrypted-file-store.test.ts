import { existsSync, readFileSync, statSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EncryptedFileKeyStore, type PlatformCipher } from '../../../src/main/secrets/encrypted-file'
import { tempDir } from '../../support/tmp'

// A folder per test, removed after it (none is left behind after the last).
let tmp: ReturnType<typeof tempDir>
beforeEach(() => {
  tmp = tempDir()
})
afterEach(() => {
  tmp.cleanup()
})

// A stand-in for safeStorage: reversible, and visibly not the plain text.
function cipher(backend = 'gnome_libsecret', available = true): PlatformCipher {
  return {
    isEncryptionAvailable: () => available,
    encryptString: (s) => Buffer.from([...Buffer.from(s)].map((b) => b ^ 0x5a)),
    decryptString: (b) => Buffer.from([...b].map((x) => x ^ 0x5a)).toString(),
    getSelectedStorageBackend: () => backend
  }
}

const KEY = 'sk-test-0123456789abcdefghijklmnop'

describe('desktop key store', () => {
  it('keeps keys encrypted in a private file and gives them back', async () => {
    const file = tmp.file('keys.json')
    const store = new EncryptedFileKeyStore(file, cipher())
    expect(store.info).toEqual({ backend: 'os-keychain', encrypted: true, warning: null })
    await store.set('openai', KEY)
    expect(await store.get('openai')).toBe(KEY)
    expect(readFileSync(file, 'utf8')).not.toContain(KEY)
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(await store.list()).toEqual([{ ref: 'openai', source: 'system keychain' }])
    await store.delete('openai')
    expect(await store.get('openai')).toBeUndefined()
  })

  it('warns where the platform only offers plain-text storage', () => {
    const store = new EncryptedFileKeyStore(tmp.file('k.json'), cipher('basic_text'))
    expect(store.info.encrypted).toBe(false)
    expect(store.info.warning).toMatch(/no keyring/)
  })

  it('refuses to store a key in plain text (Linux basic_text) unless the user opted in', async () => {
    const file = tmp.file('k.json')
    const refused = new EncryptedFileKeyStore(file, cipher('basic_text'))
    await expect(refused.set('openai', KEY)).rejects.toMatchObject({ code: 'forbidden', message: expect.stringContaining('--allow-plaintext-keys') })
    expect(existsSync(file)).toBe(false)
    const optedIn = new EncryptedFileKeyStore(file, cipher('basic_text'), { allowPlainText: true })
    expect(optedIn.info).toMatchObject({ backend: 'plain-text', encrypted: false, warning: expect.stringContaining('fixed key') })
    await optedIn.set('openai', KEY)
    expect(await optedIn.get('openai')).toBe(KEY)
  })

  it('refuses to store where no encryption is available at all, even when opted in', async () => {
    await expect(new EncryptedFileKeyStore(tmp.file('k2.json'), cipher('unknown', false), { allowPlainText: true }).set('openai', KEY)).rejects.toMatchObject({
      code: 'forbidden'
    })
  })

  it('refuses to store where no encryption is available at all', async () => {
    const store = new EncryptedFileKeyStore(tmp.file('k.json'), cipher('unknown', false))
    await expect(store.set('openai', KEY)).rejects.toMatchObject({ code: 'forbidden' })
  })
})
