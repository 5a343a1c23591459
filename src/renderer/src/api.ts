import { createClient, type AssayApi, type Envelope, type Transport } from '../../shared/contract/client'
import { withBusyRetry } from '../../shared/contract/busy-retry'
import { EVENT_NAMES } from '../../shared/contract/operations'

declare global {
  interface Window {
    /** Set by the preload script in the desktop app; absent in browser mode. */
    assayTransport?: Transport
  }
}

/** Browser mode: POST /api/<operation>; events over SSE. The token travels in an HttpOnly cookie. */
function httpTransport(): Transport {
  return {
    async invoke(operation, input) {
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
    },
    subscribe(listener) {
      const source = new EventSource('/api/events', { withCredentials: true })
      const names = [...EVENT_NAMES]
      const handlers = names.map((name) => {
        const h = (e: MessageEvent<string>) => listener(name, JSON.parse(e.data))
        source.addEventListener(name, h)
        return h
      })
      return () => {
        names.forEach((name, i) => source.removeEventListener(name, handlers[i]!))
        source.close()
      }
    }
  }
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

export const api: AssayApi = createClient(withBusyRetry(window.assayTransport ?? httpTransport()))
