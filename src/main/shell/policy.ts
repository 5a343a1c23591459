import { isAbsolute, join, normalize, relative, sep } from 'node:path'

// The desktop shell's decisions, as pure functions: no electron import, so each rule is unit-tested without a
// binary. index.ts only wires them to Electron's events.

/** The renderer is served from this privileged custom scheme (standard, secure), not from file://. */
export const APP_SCHEME = 'app'
export const APP_HOST = 'assay'
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`
export const APP_ENTRY = `${APP_ORIGIN}/index.html`

function parse(url: string): URL | null {
  try {
    return new URL(url)
  } catch {
    return null
  }
}

/**
 * The renderer's dev server, only in an unpackaged build and only on the loopback: a packaged app never loads code
 * from a URL named by an environment variable.
 */
export function devServerUrl(env: Record<string, string | undefined>, isPackaged: boolean): string | undefined {
  if (isPackaged) return undefined
  const u = parse(env.ELECTRON_RENDERER_URL ?? '')
  if (!u || u.protocol !== 'http:' || !['localhost', '127.0.0.1', '[::1]'].includes(u.hostname)) return undefined
  return u.origin
}

/** A page of the app: exactly our scheme and host (or exactly the dev server's origin), nothing that merely starts so. */
export function isAppUrl(url: string, devOrigin: string | undefined): boolean {
  const u = parse(url)
  if (!u) return false
  if (u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST && !u.username && !u.password && u.port === '') return true
  return devOrigin !== undefined && u.origin === devOrigin && u.protocol === 'http:'
}

/** The app's own document (the one page it has), as opposed to any other resource under the app's origin. */
export function isAppEntry(url: string, devOrigin: string | undefined): boolean {
  if (!isAppUrl(url, devOrigin)) return false
  const path = parse(url)!.pathname
  return path === '/' || path === '/index.html'
}

export type NavigationDecision = { action: 'allow' } | { action: 'deny' } | { action: 'deny-open-external'; url: string }

/**
 * Every navigation of a window — link clicks (`will-navigate`), redirects (`will-redirect`) and frame navigations
 * (`will-frame-navigate`) — goes through here. The app has one page and no frames: the main frame may only reload its
 * own entry; links in content (relative ones resolve under the app's origin, absolute ones anywhere) never navigate
 * the window; web links open in the system browser instead.
 */
export function navigationDecision(url: string, opts: { isMainFrame: boolean; devOrigin: string | undefined }): NavigationDecision {
  if (opts.isMainFrame && isAppEntry(url, opts.devOrigin)) return { action: 'allow' }
  const u = parse(url)
  if (u && (u.protocol === 'https:' || u.protocol === 'http:') && !isAppUrl(url, opts.devOrigin)) return { action: 'deny-open-external', url: u.href }
  return { action: 'deny' }
}

/** New windows are never opened; a web link asked for one opens in the system browser. */
export function windowOpenDecision(url: string, devOrigin: string | undefined): NavigationDecision {
  const u = parse(url)
  if (u && (u.protocol === 'https:' || u.protocol === 'http:') && !isAppUrl(url, devOrigin)) return { action: 'deny-open-external', url: u.href }
  return { action: 'deny' }
}

export interface IpcSenderFacts {
  /** The sender is a window this shell opened for a project. */
  knownWindow: boolean
  /** The sending frame is its window's main frame (not an iframe). */
  isMainFrame: boolean
  /** The URL of the sending frame. */
  frameUrl: string | undefined
}

/** IPC is accepted only from the main frame of one of our windows while it shows the app's own page. */
export function isTrustedIpcSender(s: IpcSenderFacts, devOrigin: string | undefined): boolean {
  return s.knownWindow && s.isMainFrame && s.frameUrl !== undefined && isAppEntry(s.frameUrl, devOrigin)
}

/**
 * The file an `app://assay/...` request is served from, inside the renderer folder, or null (wrong scheme or host,
 * malformed escape, or a path that leaves the folder). Paths without a file extension get the entry document, as
 * a single-page app expects.
 */
export function appRequestFile(url: string, rendererRoot: string): string | null {
  const u = parse(url)
  if (!u || u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return null
  let path: string
  try {
    path = decodeURIComponent(u.pathname)
  } catch {
    return null
  }
  if (path.includes('\0')) return null
  const rel = path === '/' || path === '' ? 'index.html' : path.replace(/^\/+/, '')
  const full = normalize(join(rendererRoot, rel))
  const back = relative(rendererRoot, full)
  if (back === '' || back.startsWith('..') || isAbsolute(back) || back.split(sep).includes('..')) return null
  return full
}

/** The user launched the app with `--allow-plaintext-keys` (or ASSAY_ALLOW_PLAINTEXT_KEYS=1): see keyStorageDecision. */
export function plaintextKeysOptIn(argv: readonly string[], env: Record<string, string | undefined>): boolean {
  return argv.includes('--allow-plaintext-keys') || env.ASSAY_ALLOW_PLAINTEXT_KEYS === '1'
}
