import { readFileSync } from 'node:fs'

// Node decodes invalid UTF-8 into U+FFFD without a word, which silently changes text people will quote and compare.
// An import reads bytes, finds every invalid sequence itself, and refuses the file unless told to accept the loss.

export interface InvalidUtf8 {
  /** 0-based byte offset of the first byte of the sequence. */
  offset: number
  /** 1-based line it is on. */
  line: number
}

export interface DecodedText {
  text: string
  /** Invalid sequences found (each became U+FFFD when decoded lossily). */
  invalid: InvalidUtf8[]
}

/** Length of the valid UTF-8 sequence starting at i, or 0 when it is invalid (overlong, surrogate, > U+10FFFF, cut). */
function sequenceLength(b: Uint8Array, i: number): number {
  const c = b[i]!
  if (c < 0x80) return 1
  const cont = (k: number) => i + k < b.length && (b[i + k]! & 0xc0) === 0x80
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0
  if (c >= 0xe0 && c <= 0xef) {
    if (!cont(1) || !cont(2)) return 0
    const c1 = b[i + 1]!
    if (c === 0xe0 && c1 < 0xa0) return 0
    if (c === 0xed && c1 > 0x9f) return 0
    return 3
  }
  if (c >= 0xf0 && c <= 0xf4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0
    const c1 = b[i + 1]!
    if (c === 0xf0 && c1 < 0x90) return 0
    if (c === 0xf4 && c1 > 0x8f) return 0
    return 4
  }
  return 0
}

/** Every invalid sequence of the bytes, with its line; `limit` stops the scan early (for a refusal, one is enough). */
export function findInvalidUtf8(bytes: Uint8Array, limit = Infinity): InvalidUtf8[] {
  const found: InvalidUtf8[] = []
  let line = 1
  for (let i = 0; i < bytes.length; ) {
    const c = bytes[i]!
    if (c < 0x80) {
      if (c === 10) line++
      i++
      continue
    }
    const n = sequenceLength(bytes, i)
    if (n) {
      i += n
      continue
    }
    found.push({ offset: i, line })
    if (found.length >= limit) break
    // Skip the lead byte and any continuation bytes after it: one bad sequence, one report (as U+FFFD decoding does
    // at most one replacement per maximal subpart).
    i++
    while (i < bytes.length && (bytes[i]! & 0xc0) === 0x80) i++
  }
  return found
}

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
const lossy = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true })

/** Decodes; with `allowInvalid` false, stops at the first invalid sequence (invalid then holds it, text is ''). */
export function decodeUtf8(bytes: Uint8Array, allowInvalid: boolean): DecodedText {
  try {
    return { text: fatal.decode(bytes), invalid: [] }
  } catch {
    if (!allowInvalid) return { text: '', invalid: findInvalidUtf8(bytes, 1) }
    return { text: lossy.decode(bytes), invalid: findInvalidUtf8(bytes) }
  }
}

/**
 * A text file an import names (a proposal's Markdown by path): its text, or why it cannot be taken. Invalid UTF-8 is
 * refused with its line and byte offset unless `lossy`; then each invalid sequence counts in `replaced`.
 */
export function readTextFile(path: string, lossy: boolean): { text: string; replaced: number } | { error: string } {
  let bytes: Buffer
  try {
    bytes = readFileSync(path)
  } catch (e) {
    return { error: `cannot read it: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` }
  }
  const decoded = decodeUtf8(bytes, lossy)
  const bad = decoded.invalid[0]
  if (bad && !lossy) return { error: `invalid UTF-8 at line ${bad.line}, byte offset ${bad.offset} (import with --lossy to replace it by U+FFFD)` }
  return { text: decoded.text.charCodeAt(0) === 0xfeff ? decoded.text.slice(1) : decoded.text, replaced: decoded.invalid.length }
}
