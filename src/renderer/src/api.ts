import type { AssayApi, Envelope, Transport } from '../../shared/contract/client'
import { withBusyRetry } from '../../shared/contract/busy-retry'
import { rendererClient } from './api-client'
import { firstAnswer } from './first-page'

declare global {
  interface Window {
    /** Set by the preload script in the desktop app; absent in browser mode. */
    assayTransport?: Transport
  }
}

/** Browser mode: POST /api/<operation>. The token travels in an HttpOnly cookie. */
async function httpInvoke(operation: string, input: unknown): Promise<Envelope> {
  const res = await fetch(`/api/${encodeURIComponent(operation)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify(input ?? {})
  })
  try {
    return (await res.json()) as Envelope
  } catch {
    return { ok: false, error: { code: 'internal', message: `HTTP ${res.status} from the workbench server` } }
  }
}

/** Browser mode's events: server-sent, one stream per listener, which hears only the event it asked for. */
function httpListen(event: string, listener: (payload: unknown) => void): () => void {
  const source = new EventSource('/api/events', { withCredentials: true })
  const h = (e: MessageEvent<string>) => listener(JSON.parse(e.data))
  source.addEventListener(event, h)
  return () => {
    source.removeEventListener(event, h)
    source.close()
  }
}

/** The desktop app's transport (IPC through the preload script), which passes on every event. */
function desktopClient(transport: Transport): AssayApi {
  return rendererClient(withBusyRetry(transport).invoke, (event, listener) =>
    transport.subscribe((name, payload) => {
      if (name === event) listener(payload)
    })
  )
}

/** Retrying needs a whole transport; the browser client listens per event instead (httpListen). */
const httpListenAll: Transport['subscribe'] = () => () => undefined

function browserClient(): AssayApi {
  const invoke = withBusyRetry({ invoke: httpInvoke, subscribe: httpListenAll }).invoke
  return rendererClient((operation, input) => {
    const answered = firstAnswer(operation, input)
    return answered ? Promise.resolve(answered) : invoke(operation, input)
  }, httpListen)
}

/**
 * The token is kept in an HttpOnly cookie once the page is served: take it out of the address bar and the history
 * entry, so it is not shown, bookmarked or copied with the URL.
 */
export function dropTokenFromAddress(): void {
  const here = new URL(window.location.href)
  if (!here.searchParams.has('token')) return
  here.searchParams.delete('token')
  window.history.replaceState(window.history.state, '', `${here.pathname}${here.search}${here.hash}`)
}

export const api: AssayApi = window.assayTransport ? desktopClient(window.assayTransport) : browserClient()
