import type OpenAI from 'openai'
import { toFile } from 'openai'
import { batchCallWithDeadline, responseOrMalformed } from './batch-calls'
import { assertBatchIds, batchNotFinished } from './batch-ids'
import { chatBody, chatCompletionToResponse, createChatClient, mapChatError } from './chat-completions'
import { kindForStatus, redact, withDeadline } from './errors'
import {
  ProviderError,
  type BatchApi,
  type BatchCallOptions,
  type BatchItem,
  type BatchResult,
  type BatchStatus,
  type JudgeConfig,
  type ModelRequest,
  type ModelResponse,
  type Provider,
  type ProviderErrorKind,
  type ProviderOptions
} from './types'

const CHAT_ENDPOINT = '/v1/chat/completions'

export class OpenAIProvider implements Provider {
  readonly kind = 'openai' as const
  readonly batch: BatchApi
  private readonly client: OpenAI
  private readonly secrets: string[]

  constructor(options: ProviderOptions) {
    this.client = createChatClient('openai', options)
    this.secrets = [options.apiKey]
    this.batch = new OpenAIBatch(this.client, this.secrets)
  }

  complete(config: JudgeConfig, req: ModelRequest): Promise<ModelResponse> {
    return withDeadline(
      'openai',
      req,
      this.secrets,
      async (signal, timeoutMs) => {
        const completion = await this.client.chat.completions.create(chatBody('openai', config, req), { signal, timeout: timeoutMs, maxRetries: 0 })
        return chatCompletionToResponse('openai', completion)
      },
      (e) => mapChatError('openai', e)
    )
  }
}

/** OpenAI Batch: a JSONL file of chat requests uploaded to /v1/files, a /v1/batches job, and its output file. */
class OpenAIBatch implements BatchApi {
  constructor(
    private readonly client: OpenAI,
    private readonly secrets: string[]
  ) {}

  private control<T>(options: BatchCallOptions | undefined, call: (o: { signal: AbortSignal; timeout: number; maxRetries: 0 }) => Promise<T>): Promise<T> {
    return batchCallWithDeadline('openai', options, this.secrets, (signal, timeout) => call({ signal, timeout, maxRetries: 0 }), (e) => mapChatError('openai', e))
  }

  async submit(config: JudgeConfig, requests: BatchItem[], options?: BatchCallOptions): Promise<{ batchId: string }> {
    assertBatchIds('openai', requests)
    const jsonl = requests
      .map((r) => JSON.stringify({ custom_id: r.customId, method: 'POST', url: CHAT_ENDPOINT, body: chatBody('openai', config, r.request) }))
      .join('\n')
    return this.control(options, async (o) => {
      const file = await this.client.files.create({ file: await toFile(Buffer.from(`${jsonl}\n`, 'utf8'), 'requests.jsonl', { type: 'application/jsonl' }), purpose: 'batch' }, o)
      const batch = await this.client.batches.create({ input_file_id: file.id, endpoint: CHAT_ENDPOINT, completion_window: '24h' }, o)
      return { batchId: batch.id }
    })
  }

  poll(batchId: string, options?: BatchCallOptions): Promise<BatchStatus> {
    return this.control(options, async (o) => {
      const batch = await this.client.batches.retrieve(batchId, o)
      const counts = batch.request_counts
      return {
        state: openAIBatchState(batch.status),
        done: counts ? counts.completed + counts.failed : 0,
        total: counts?.total ?? 0
      }
    })
  }

  results(batchId: string, options?: BatchCallOptions): Promise<BatchResult[]> {
    return this.control(options, async (o) => {
      const batch = await this.client.batches.retrieve(batchId, o)
      if (openAIBatchState(batch.status) === 'running') throw batchNotFinished('openai', batchId)
      const out: BatchResult[] = []
      // Successes go to the output file, failures (and requests a cancel or expiry left undone) to the error file.
      for (const fileId of [batch.output_file_id, batch.error_file_id]) {
        if (!fileId) continue
        const text = await (await this.client.files.content(fileId, o)).text()
        for (const line of text.split('\n')) {
          if (line.trim() !== '') out.push(openAIBatchLine(line, this.secrets))
        }
      }
      return out
    })
  }
}

export function openAIBatchState(status: string): BatchStatus['state'] {
  switch (status) {
    case 'completed':
      return 'done'
    case 'failed':
    case 'expired':
      return 'failed'
    case 'cancelling':
    case 'cancelled':
      return 'cancelled'
    default:
      return 'running'
  }
}

function batchErrorKind(code: unknown): ProviderErrorKind {
  if (code === 'batch_expired') return 'timeout'
  if (code === 'batch_cancelled') return 'cancelled'
  return 'server'
}

/** One line of a batch output or error file. */
function openAIBatchLine(line: string, secrets: string[]): BatchResult {
  let parsed: { custom_id?: unknown; response?: { status_code?: unknown; body?: unknown } | null; error?: { code?: unknown; message?: unknown } | null }
  try {
    parsed = JSON.parse(line) as typeof parsed
  } catch {
    throw new ProviderError({ kind: 'malformed', message: 'openai: unparseable line in a batch result file', provider: 'openai' })
  }
  const customId = typeof parsed.custom_id === 'string' ? parsed.custom_id : ''
  if (parsed.error) {
    const message = typeof parsed.error.message === 'string' ? parsed.error.message : 'batch request failed'
    return { customId, error: { kind: batchErrorKind(parsed.error.code), message: redact(message, secrets) } }
  }
  const status = typeof parsed.response?.status_code === 'number' ? parsed.response.status_code : 0
  if (status === 200) {
    return responseOrMalformed(customId, () => chatCompletionToResponse('openai', parsed.response?.body))
  }
  const body = parsed.response?.body as { error?: { message?: unknown } } | undefined
  const message = typeof body?.error?.message === 'string' ? body.error.message : `HTTP ${status}`
  return { customId, error: { kind: status ? kindForStatus(status) : 'malformed', message: redact(`openai HTTP ${status}: ${message}`, secrets) } }
}
