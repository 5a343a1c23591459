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

/**
 * Every invalid sequence of the bytes, with its line; `limit` stops the scan early (for a refusal, one is enough).
 * It follows the WHATWG UTF-8 decoder (what TextDecoder runs), so each entry is one U+FFFD of the decoded text: a
 * byte that cannot start a sequence is one; a lead byte followed by fewer continuation bytes than it needs (or by one
 * outside its allowed range: overlong, surrogate, above U+10FFFF) is one for the bytes taken so far, and the byte
 * that broke it is read again on its own. So `ED A0 80` is three (ED cannot take A0), `C0 AF` two, `E2 82 61` one.
 */
export function findInvalidUtf8(bytes: Uint8Array, limit = Infinity): InvalidUtf8[] {
  const found: InvalidUtf8[] = []
  let line = 1
  let needed = 0
  let seen = 0
  let lower = 0x80
  let upper = 0xbf
  let start = 0
  let startLine = 1
  const replaced = (offset: number, at: number) => found.push({ offset, line: at }) >= limit
  for (let i = 0; i < bytes.length; ) {
    const c = bytes[i]!
    if (needed === 0) {
      i++
      if (c < 0x80) {
        if (c === 10) line++
        continue
      }
      start = i - 1
      startLine = line
      if (c >= 0xc2 && c <= 0xdf) needed = 1
      else if (c >= 0xe0 && c <= 0xef) {
        if (c === 0xe0) lower = 0xa0
        if (c === 0xed) upper = 0x9f
        needed = 2
      } else if (c >= 0xf0 && c <= 0xf4) {
        if (c === 0xf0) lower = 0x90
        if (c === 0xf4) upper = 0x8f
        needed = 3
      } else if (replaced(start, line)) break
      continue
    }
    if (c < lower || c > upper) {
      // The sequence so far is one replacement; this byte is not consumed and starts again.
      needed = seen = 0
      lower = 0x80
      upper = 0xbf
      if (replaced(start, startLine)) break
      continue
    }
    lower = 0x80
    upper = 0xbf
    i++
    if (++seen === needed) needed = seen = 0
  }
  // A sequence cut off by the end of the bytes is one more.
  if (needed !== 0 && found.length < limit) found.push({ offset: start, line: startLine })
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
