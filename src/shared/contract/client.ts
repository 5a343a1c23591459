import { AssayError, errorPayloadSchema, type ErrorPayload } from '../errors'
import {
  OPERATION_NAMES,
  type EventName,
  type EventPayload,
  type OperationInput,
  type OperationName,
  type OperationOutput
} from './operations'

/** What travels back for every call, over IPC and HTTP alike. */
export type Envelope = { ok: true; value: unknown } | { ok: false; error: ErrorPayload }

/** How a client reaches main: IPC in the desktop app, HTTP + SSE in browser mode, direct calls in tests. */
export interface Transport {
  invoke(operation: string, input: unknown): Promise<Envelope>
  subscribe(listener: (event: string, payload: unknown) => void): () => void
}

export type AssayApi = {
  [K in OperationName]: (input: OperationInput<K>) => Promise<OperationOutput<K>>
} & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void
}

/** Builds the typed client from the contract: one method per operation; errors rethrown as AssayError. */
export function createClient(transport: Transport): AssayApi {
  const api: Record<string, unknown> = {}
  for (const name of OPERATION_NAMES) {
    api[name] = async (input: unknown) => {
      const env = await transport.invoke(name, input ?? {})
      if (env.ok) return env.value
      const parsed = errorPayloadSchema.safeParse(env.error)
      throw parsed.success ? AssayError.fromPayload(parsed.data) : new AssayError('internal', 'malformed error from main')
    }
  }
  api.on = (event: string, listener: (p: unknown) => void) =>
    transport.subscribe((name, payload) => {
      if (name === event) listener(payload)
    })
  return api as AssayApi
}
