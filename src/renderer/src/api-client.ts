import type { AssayApi, Transport } from '../../shared/contract/client'

/**
 * The typed client of the contract, without the contract's schemas: main validates every input and knows every
 * operation, so the window needs only the names it calls, and keeping the schemas out lets the first screen start
 * sooner. Any property named like an operation (`queue.item`) calls it; nothing else is one (so the client is never
 * mistaken for a promise).
 */
export function rendererClient(invoke: Transport['invoke'], listen: (event: string, listener: (payload: unknown) => void) => () => void): AssayApi {
  const calls = new Map<string, (input: unknown) => Promise<unknown>>()
  const call = (name: string) => async (input: unknown) => {
    const env = await invoke(name, input ?? {})
    if (env.ok) return env.value
    // Errors are rare: their class and schema (zod) load with the first one, or are there already with the screens.
    const { AssayError, errorPayloadSchema } = await import('../../shared/errors')
    const parsed = errorPayloadSchema.safeParse(env.error)
    throw parsed.success ? AssayError.fromPayload(parsed.data) : new AssayError('internal', 'malformed error from main')
  }
  return new Proxy({} as AssayApi, {
    get(_target, name) {
      if (name === 'on') return listen
      if (typeof name !== 'string' || !name.includes('.')) return undefined
      let fn = calls.get(name)
      if (!fn) calls.set(name, (fn = call(name)))
      return fn
    }
  })
}
