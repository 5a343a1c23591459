/**
 * The renderer's Content-Security-Policy, the same in the desktop window and browser mode: no remote code,
 * no inline script, connections only to the serving origin. KaTeX needs inline styles and its bundled fonts.
 */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join('; ')
