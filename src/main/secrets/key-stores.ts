import { AssayError } from '../../shared/errors'
import { envVarFor, type KeyRef } from './refs'

export interface KeyStorageInfo {
  /** Where keys are kept, for the settings screen: `environment`, `memory`, `os-keychain`, `plain-text`. */
  backend: string
  /** Whether keys at rest are encrypted by the platform. */
  encrypted: boolean
  /** Shown to the user when keys are kept in a way they should know about (plain text on disk). */
  warning: string | null
}

export interface StoredKeyRef {
  ref: KeyRef
  /** Which store holds it, e.g. `environment (OPENAI_API_KEY)`; never any part of the key. */
  source: string
}

/**
 * Where API keys live. Keys go in through `set` and out only to the provider clients in main: no method returns a
 * key to a caller that could pass it on to the renderer, a log or the project file, except `get` for the runner.
 */
export interface KeyStore {
  readonly info: KeyStorageInfo
  get(ref: KeyRef): Promise<string | undefined>
  set(ref: KeyRef, key: string): Promise<void>
  delete(ref: KeyRef): Promise<void>
  list(): Promise<StoredKeyRef[]>
}

/** The command line's store: environment variables, read only. */
export class EnvKeyStore implements KeyStore {
  readonly info: KeyStorageInfo = { backend: 'environment', encrypted: false, warning: null }

  constructor(
    /** The variables to read; the process's own, as they are at each read, when not given (a store lives as long as the process). */
    private readonly given?: NodeJS.ProcessEnv,
    /** `--api-key-env VAR`: the variable to read for every key, whatever its reference. */
    private readonly overrideVar?: string
  ) {}

  private get env(): NodeJS.ProcessEnv {
    return this.given ?? process.env
  }

  private found(ref: KeyRef): { name: string; value: string } | undefined {
    const names = this.overrideVar ? [this.overrideVar] : envVarFor(ref)
    for (const name of names) {
      const value = this.env[name]
      if (value !== undefined && value.trim() !== '') return { name, value: value.trim() }
    }
    return undefined
  }

  get(ref: KeyRef): Promise<string | undefined> {
    return Promise.resolve(this.found(ref)?.value)
  }

  set(_ref: KeyRef, _key: string): Promise<void> {
    return Promise.reject(new AssayError('forbidden', 'keys for the command line are set as environment variables'))
  }

  delete(ref: KeyRef): Promise<void> {
    return this.set(ref, '')
  }

  list(): Promise<StoredKeyRef[]> {
    const refs = ['openai', 'anthropic', 'google']
    for (const name of Object.keys(this.env)) {
      const m = /^ASSAY_KEY_([A-Z][A-Z0-9_]*)$/.exec(name)
      if (m) refs.push(`named:${m[1]}`)
    }
    const out: StoredKeyRef[] = []
    for (const ref of refs) {
      const f = this.found(ref)
      if (f) out.push({ ref, source: `environment (${f.name})` })
    }
    return Promise.resolve(out)
  }
}

/** Keys held in this process only: tests, and a desktop session whose platform offers no safe storage. */
export class MemoryKeyStore implements KeyStore {
  readonly info: KeyStorageInfo
  private readonly keys = new Map<KeyRef, string>()

  constructor(info: Partial<KeyStorageInfo> = {}) {
    this.info = { backend: 'memory', encrypted: false, warning: null, ...info }
  }

  get(ref: KeyRef): Promise<string | undefined> {
    return Promise.resolve(this.keys.get(ref))
  }

  set(ref: KeyRef, key: string): Promise<void> {
    const trimmed = key.trim()
    if (trimmed === '') return Promise.reject(new AssayError('invalid_input', 'the key is empty'))
    this.keys.set(ref, trimmed)
    return Promise.resolve()
  }

  delete(ref: KeyRef): Promise<void> {
    this.keys.delete(ref)
    return Promise.resolve()
  }

  list(): Promise<StoredKeyRef[]> {
    return Promise.resolve([...this.keys.keys()].map((ref) => ({ ref, source: this.info.backend })))
  }
}

/** A writable store in front of a fallback (the desktop's keychain before the environment). */
export class LayeredKeyStore implements KeyStore {
  constructor(
    private readonly primary: KeyStore,
    private readonly fallback: KeyStore
  ) {}

  get info(): KeyStorageInfo {
    return this.primary.info
  }

  async get(ref: KeyRef): Promise<string | undefined> {
    return (await this.primary.get(ref)) ?? (await this.fallback.get(ref))
  }

  set(ref: KeyRef, key: string): Promise<void> {
    return this.primary.set(ref, key)
  }

  delete(ref: KeyRef): Promise<void> {
    return this.primary.delete(ref)
  }

  async list(): Promise<StoredKeyRef[]> {
    const first = await this.primary.list()
    const seen = new Set(first.map((k) => k.ref))
    return [...first, ...(await this.fallback.list()).filter((k) => !seen.has(k.ref))]
  }
}
