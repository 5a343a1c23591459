import { EnvKeyStore, LayeredKeyStore, MemoryKeyStore, type KeyStore } from './key-stores'

// The store the API handlers use. The desktop shell replaces it at start with its safeStorage-backed store; the web
// bridge and tests keep the default: keys typed into the workbench live in memory, in front of the environment.
let current: KeyStore | undefined

export function defaultKeyStore(): KeyStore {
  current ??= new LayeredKeyStore(
    new MemoryKeyStore({ warning: 'Keys entered here are kept in memory only and are forgotten when Assay stops.' }),
    new EnvKeyStore()
  )
  return current
}

export function setDefaultKeyStore(store: KeyStore): void {
  current = store
}
