import { net, protocol } from 'electron'
import { pathToFileURL } from 'node:url'
import { RENDERER_CSP } from '../../shared/security'
import { APP_SCHEME, appRequestFile } from './policy'

/**
 * The app's own origin. Must run before the app is ready: a standard, secure scheme gets an origin of its own (so
 * storage and CSP `'self'` mean the app, not every local file as under file://).
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } }])
}

/** Serves `app://assay/...` from the built renderer folder only, with the renderer's CSP on every response. */
export function serveAppScheme(rendererRoot: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = appRequestFile(request.url, rendererRoot)
    if (!file || request.method !== 'GET') return new Response('not found', { status: 404 })
    const res = await net.fetch(pathToFileURL(file).toString())
    const headers = new Headers(res.headers)
    headers.set('content-security-policy', RENDERER_CSP)
    headers.set('x-content-type-options', 'nosniff')
    return new Response(res.body, { status: res.status, headers })
  })
}
