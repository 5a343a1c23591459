import { AnthropicProvider } from './anthropic'
import { CompatibleProvider } from './compatible'
import { GoogleProvider } from './google'
import { OpenAIProvider } from './openai'
import { ProviderError, type Provider, type ProviderKind, type ProviderOptions } from './types'

export * from './types'
export { companyOf, sameCompany, UNKNOWN_COMPANY, type Company, type CompanyRule } from './companies'
export { parseRetryAfter, redact } from './errors'

/** A provider for one API key. Keys are required except for openai-compatible servers, many of which take none. */
export function createProvider(kind: ProviderKind, options: ProviderOptions): Provider {
  if (kind !== 'openai-compatible' && !options.apiKey) {
    throw new ProviderError({ kind: 'auth', message: `${kind}: an API key is required`, provider: kind })
  }
  switch (kind) {
    case 'openai':
      return new OpenAIProvider(options)
    case 'anthropic':
      return new AnthropicProvider(options)
    case 'google':
      return new GoogleProvider(options)
    case 'openai-compatible':
      return new CompatibleProvider(options)
  }
}
