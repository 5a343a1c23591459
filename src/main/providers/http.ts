// Node's fetch (undici) gives up after 300 s without response headers, which would silently cap the long deadlines
// a reasoning judge needs (900 s is common). Every call here has its own deadline (withDeadline), so the requests go
// through a dispatcher that turns undici's header/body timeouts off, the way @google/genai does for itself.

const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1')

interface Dispatcher {
  dispatch(opts: Record<string, unknown>, handler: unknown): boolean
}

function globalDispatcher(): Dispatcher | undefined {
  let found = (globalThis as Record<symbol, unknown>)[GLOBAL_DISPATCHER]
  if (!found) {
    // Node creates its dispatcher lazily; touching a fetch class makes it exist.
    new Headers()
    found = (globalThis as Record<symbol, unknown>)[GLOBAL_DISPATCHER]
  }
  const d = found as Partial<Dispatcher> | undefined
  return d && typeof d.dispatch === 'function' ? (d as Dispatcher) : undefined
}

const noTimeoutDispatcher = {
  dispatch(opts: Record<string, unknown>, handler: unknown): boolean {
    const inner = globalDispatcher()
    if (!inner) throw new Error('undici global dispatcher unavailable')
    return inner.dispatch({ ...opts, headersTimeout: 0, bodyTimeout: 0 }, handler)
  }
}

const isNode = typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string'

/** The fetch the SDKs get: the caller's when given, else the global fetch without undici's own timeouts. */
export function providerFetch(custom?: typeof fetch): typeof fetch {
  if (custom) return custom
  if (!isNode || !globalDispatcher()) return globalThis.fetch.bind(globalThis)
  return ((input: Parameters<typeof fetch>[0], init?: RequestInit) =>
    globalThis.fetch(input, { ...init, dispatcher: noTimeoutDispatcher } as unknown as RequestInit)) as typeof fetch
}
