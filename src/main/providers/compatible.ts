import type OpenAI from 'openai'
import { chatBody, chatCompletionToResponse, createChatClient, mapChatError } from './chat-completions'
import { withDeadline } from './errors'
import { ProviderError, type JudgeConfig, type ModelRequest, type ModelResponse, type Provider, type ProviderOptions } from './types'

/**
 * Any server speaking Chat Completions at a base URL: vLLM, Ollama, llama.cpp, LM Studio, xAI, DeepSeek, OpenRouter.
 * No batch API: the servers that have one disagree on it.
 */
export class CompatibleProvider implements Provider {
  readonly kind = 'openai-compatible' as const
  private readonly client: OpenAI
  private readonly secrets: string[]

  constructor(options: ProviderOptions) {
    if (!options.baseUrl) {
      throw new ProviderError({ kind: 'bad_request', message: 'openai-compatible: a base URL is required', provider: 'openai-compatible' })
    }
    this.client = createChatClient('openai-compatible', options)
    this.secrets = options.apiKey ? [options.apiKey] : []
  }

  complete(config: JudgeConfig, req: ModelRequest): Promise<ModelResponse> {
    return withDeadline(
      'openai-compatible',
      req,
      this.secrets,
      async (signal, timeoutMs) => {
        const completion = await this.client.chat.completions.create(chatBody('openai-compatible', config, req), { signal, timeout: timeoutMs, maxRetries: 0 })
        return chatCompletionToResponse('openai-compatible', completion)
      },
      (e) => mapChatError('openai-compatible', e)
    )
  }
}
