import { createHash } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { extname, join, normalize, sep } from 'node:path'
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib'
import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * The built renderer over HTTP. Files under assets/ carry a content hash in their name (Vite), so they are cached
 * for a year as immutable; anything else is revalidated on every load (`no-cache`, with an ETag; for a page that
 * carries the answers to the window's first calls, the tag is that of the page as sent).
 * Text is sent brotli- or gzip-compressed as the browser accepts: the build writes `.br` and `.gz` beside each
 * asset; what has none is compressed once on first request and kept in memory.
 */

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.ico': 'image/x-icon'
}

/** Types worth compressing; fonts in woff/woff2 and images are compressed already. */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg', '.ttf'])

export const IMMUTABLE = 'public, max-age=31536000, immutable'
export const REVALIDATE = 'no-cache'

type Encoding = 'br' | 'gzip' | 'identity'

interface Entry {
  mtimeMs: number
  size: number
  etag: string
  bodies: Partial<Record<Encoding, Buffer>>
}

export type StaticOutcome = 'served' | 'not_found' | 'bad_path'

export interface StaticFiles {
  /**
   * Answers a GET or HEAD for `pathname` (already known to be outside /api). Paths that are not files fall back to
   * index.html (the app routes itself), except under assets/ or with a file extension, where a missing file is a
   * 404, never HTML.
   * `htmlHeaders` go only on HTML responses (CSP, cookie); what `intoPage` gives is put at the end of an HTML
   * page's head, and that response is made for this request alone.
   */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string, htmlHeaders: Record<string, string>, intoPage?: () => Promise<string>): Promise<StaticOutcome>
}

export function staticFiles(rootDir: string): StaticFiles {
  const root = normalize(rootDir)
  const cache = new Map<string, Entry>()

  function entryOf(file: string): Entry {
    const st = statSync(file)
    const known = cache.get(file)
    if (known && known.mtimeMs === st.mtimeMs && known.size === st.size) return known
    const entry: Entry = { mtimeMs: st.mtimeMs, size: st.size, etag: `"${st.size.toString(36)}-${Math.floor(st.mtimeMs).toString(36)}"`, bodies: {} }
    cache.set(file, entry)
    return entry
  }

  function body(file: string, entry: Entry, encoding: Encoding): Buffer {
    const held = entry.bodies[encoding]
    if (held) return held
    let data: Buffer
    if (encoding === 'identity') data = readFileSync(file)
    else {
      const pre = `${file}.${encoding === 'br' ? 'br' : 'gz'}`
      if (existsSync(pre) && statSync(pre).mtimeMs >= entry.mtimeMs) data = readFileSync(pre)
      else {
        // Compressed once per file and kept.
        data = compress(body(file, entry, 'identity'), encoding)
      }
    }
    entry.bodies[encoding] = data
    return data
  }

  return {
    async serve(req, res, pathname, htmlHeaders, intoPage) {
      const rel = pathname === '/' ? 'index.html' : decode(pathname.slice(1))
      if (rel === null) return 'bad_path'
      const full = normalize(join(root, rel))
      if (!full.startsWith(root + sep)) return 'not_found'
      const isFile = existsSync(full) && statSync(full).isFile()
      const hashed = rel.startsWith('assets/')
      // Only app routes fall back to the page; a missing file (an asset, /favicon.ico) is a 404, not HTML.
      if (!isFile && (hashed || extname(rel) !== '')) return 'not_found'
      const file = isFile ? full : join(root, 'index.html')
      if (!existsSync(file)) return 'not_found'

      const ext = extname(file)
      const entry = entryOf(file)
      const encoding: Encoding = COMPRESSIBLE.has(ext) ? negotiate(req.headers['accept-encoding']) : 'identity'
      // A page that carries this request's answers is revalidated like any other, against a tag of its own bytes.
      const composed = ext === '.html' && intoPage ? Buffer.from(withinHead(body(file, entry, 'identity').toString('utf8'), await intoPage())) : null
      const etag = composed ? tagOf(composed) : entry.etag
      const headers: Record<string, string> = {
        'content-type': MIME[ext] ?? 'application/octet-stream',
        'x-content-type-options': 'nosniff',
        'cache-control': hashed && isFile ? IMMUTABLE : REVALIDATE,
        etag,
        vary: 'Accept-Encoding',
        ...(ext === '.html' ? htmlHeaders : {})
      }
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, headers)
        res.end()
        return 'served'
      }
      const data = composed ? compress(composed, encoding) : body(file, entry, encoding)
      if (encoding !== 'identity') headers['content-encoding'] = encoding
      headers['content-length'] = String(data.length)
      res.writeHead(200, headers)
      res.end(req.method === 'HEAD' ? undefined : data)
      return 'served'
    }
  }
}

/** A strong tag of a body made for one request. */
function tagOf(data: Buffer): string {
  return `"${createHash('sha256').update(data).digest('base64url').slice(0, 27)}"`
}

/** A middle quality, since this runs while the browser waits. */
function compress(raw: Buffer, encoding: Encoding): Buffer {
  if (encoding === 'identity') return raw
  return encoding === 'br' ? brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length } }) : gzipSync(raw, { level: 6 })
}

/** `extra` at the end of the page's head (or of the page, for one without a head: never before its doctype). */
function withinHead(page: string, extra: string): string {
  const at = page.search(/<\/head>/i)
  return at >= 0 ? page.slice(0, at) + extra + page.slice(at) : page + extra
}

/** brotli when the browser takes it, else gzip, else none; a `;q=0` refuses an encoding. */
export function negotiate(accept: string | string[] | undefined): Encoding {
  const offered = new Map<string, number>()
  for (const part of (Array.isArray(accept) ? accept.join(',') : (accept ?? '')).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';')
    if (!name) continue
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean)
    offered.set(name, q ? Number(q[1]) : 1)
  }
  const ok = (e: string) => (offered.get(e) ?? (offered.has('*') ? offered.get('*')! : 0)) > 0
  if (ok('br')) return 'br'
  if (ok('gzip')) return 'gzip'
  return 'identity'
}

function decode(s: string): string | null {
  try {
    return decodeURIComponent(s)
  } catch {
    return null
  }
}
