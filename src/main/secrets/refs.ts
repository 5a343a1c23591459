import { keyNameSchema } from '../../shared/contract/run-operations'
import type { ProviderKind } from '../providers/types'

export { keyNameSchema }

/**
 * The name a key is stored under: `openai`, `anthropic`, `google`, or `named:<NAME>` for a key of its own (an
 * OpenAI-compatible endpoint such as xAI or a local server, or a second account). A reference is not a secret; the
 * project records it with the judge so the same key is found again.
 */
export type KeyRef = string

/** The key a judge uses; null for an OpenAI-compatible server that takes no key. */
export function keyRefFor(provider: ProviderKind, keyName?: string | null): KeyRef | null {
  if (keyName) return `named:${keyNameSchema.parse(keyName)}`
  return provider === 'openai-compatible' ? null : provider
}

/** The environment variables the command line reads a key from, first found wins. */
export function envVarFor(ref: KeyRef): string[] {
  if (ref.startsWith('named:')) return [`ASSAY_KEY_${ref.slice('named:'.length)}`]
  switch (ref) {
    case 'openai':
      return ['OPENAI_API_KEY']
    case 'anthropic':
      return ['ANTHROPIC_API_KEY']
    case 'google':
      // The Gemini SDK's own name first, then Google's generic one.
      return ['GEMINI_API_KEY', 'GOOGLE_API_KEY']
    default:
      return []
  }
}
