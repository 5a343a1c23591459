export interface KeyStoragePolicyInput {
  encryptionAvailable: boolean
  /** `safeStorage.getSelectedStorageBackend()` on Linux; undefined elsewhere. */
  backend: string | undefined
  /** The user chose plain-text storage explicitly (the desktop app's `--allow-plaintext-keys`). */
  optedIn: boolean
}

/**
 * Whether API keys may be saved: only where the platform really encrypts them, or where it does not (Linux
 * `basic_text`, a fixed key anyone with the user's files can undo) and the user chose that explicitly — as VS Code
 * asks for `--password-store=basic`.
 */
export function keyStorageDecision(p: KeyStoragePolicyInput): { store: boolean; plainText: boolean } {
  const plainText = !p.encryptionAvailable || p.backend === 'basic_text' || p.backend === 'unknown'
  return { store: p.encryptionAvailable && (!plainText || p.optedIn), plainText }
}
