import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { AssayError } from '../../shared/errors'
import type { KeyRef } from './refs'
import type { KeyStorageInfo, KeyStore, StoredKeyRef } from './key-stores'
import { keyStorageDecision } from './plaintext-policy'

/** What the desktop's `safeStorage` offers; injected so this store runs (and is tested) without Electron. */
export interface PlatformCipher {
  isEncryptionAvailable(): boolean
  encryptString(plain: string): Buffer
  decryptString(encrypted: Buffer): string
  /** Linux only: 'basic_text' means the platform has no keyring and "encryption" is a fixed key. */
  getSelectedStorageBackend?(): string
}

const PLAIN_TEXT_REFUSED =
  'This system offers no keyring: a saved key would be protected only by a fixed key, readable by anyone who can read your user folder. Use environment variables (OPENAI_API_KEY, …), or start Assay with --allow-plaintext-keys to store keys this way anyway.'

/**
 * Keys encrypted by the platform (Keychain, DPAPI, libsecret/kwallet) in a file of the user-data folder, never in a
 * project. Where the platform only offers plain-text storage (Linux `basic_text`), nothing is stored unless the user
 * opted in (`allowPlainText`); `info.warning` says so on the keys panel before anything is typed.
 */
export class EncryptedFileKeyStore implements KeyStore {
  readonly info: KeyStorageInfo
  private readonly mayStore: boolean

  constructor(
    private readonly file: string,
    private readonly cipher: PlatformCipher,
    opts: { allowPlainText?: boolean } = {}
  ) {
    const available = cipher.isEncryptionAvailable()
    const decision = keyStorageDecision({ encryptionAvailable: available, backend: cipher.getSelectedStorageBackend?.(), optedIn: opts.allowPlainText ?? false })
    this.mayStore = decision.store
    this.info = {
      backend: decision.plainText ? 'plain-text' : 'os-keychain',
      encrypted: !decision.plainText,
      warning: !decision.plainText
        ? null
        : decision.store
          ? 'Keys are stored with a fixed key (you chose --allow-plaintext-keys): anyone who can read your user folder can read them.'
          : PLAIN_TEXT_REFUSED
    }
  }

  private read(): Record<string, string> {
    if (!existsSync(this.file)) return {}
    try {
      const data = JSON.parse(readFileSync(this.file, 'utf8')) as unknown
      return data && typeof data === 'object' ? (data as Record<string, string>) : {}
    } catch {
      return {}
    }
  }

  private write(data: Record<string, string>): void {
    mkdirSync(dirname(this.file), { recursive: true })
    const tmp = `${this.file}.tmp`
    writeFileSync(tmp, JSON.stringify(data, null, 2), { mode: 0o600 })
    renameSync(tmp, this.file)
  }

  get(ref: KeyRef): Promise<string | undefined> {
    const sealed = this.read()[ref]
    if (!sealed || !this.cipher.isEncryptionAvailable()) return Promise.resolve(undefined)
    try {
      return Promise.resolve(this.cipher.decryptString(Buffer.from(sealed, 'base64')))
    } catch {
      // A file from another machine or user cannot be opened here; treat it as no key rather than fail the run.
      return Promise.resolve(undefined)
    }
  }

  set(ref: KeyRef, key: string): Promise<void> {
    const trimmed = key.trim()
    if (trimmed === '') return Promise.reject(new AssayError('invalid_input', 'the key is empty'))
    if (!this.cipher.isEncryptionAvailable()) return Promise.reject(new AssayError('forbidden', 'this system cannot store keys; use environment variables'))
    if (!this.mayStore) return Promise.reject(new AssayError('forbidden', PLAIN_TEXT_REFUSED))
    const data = this.read()
    data[ref] = this.cipher.encryptString(trimmed).toString('base64')
    this.write(data)
    return Promise.resolve()
  }

  delete(ref: KeyRef): Promise<void> {
    const data = this.read()
    if (ref in data) {
      delete data[ref]
      this.write(data)
    }
    return Promise.resolve()
  }

  list(): Promise<StoredKeyRef[]> {
    return Promise.resolve(Object.keys(this.read()).map((ref) => ({ ref, source: this.info.encrypted ? 'system keychain' : 'plain-text file' })))
  }
}
