import { describe, expect, it } from 'vitest'
import { decodeUtf8, findInvalidUtf8 } from '../../../src/main/import/utf8'

// The count of invalid UTF-8 an import reports is the number of U+FFFD the decoder put in the text: the WHATWG
// decoder (TextDecoder with fatal: false) replaces each maximal subpart of an ill-formed sequence by one U+FFFD, so
// `ED A0 80` (a surrogate) is three replacements, not one. Every expectation here is read off that decoder.

const reference = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true })

/** U+FFFD the decoder inserted, per line (the text's own U+FFFD, written as EF BF BD, are not counted). */
function replacedPerLine(bytes: Uint8Array): number[] {
  const decodedLines = reference.decode(bytes).split('\n')
  const validLines = new TextDecoder().decode(bytes.filter((b) => b < 0x80)).split('\n')
  const own = Buffer.from(bytes).toString('latin1').split('\n').map((l) => l.split('\u00ef\u00bf\u00bd').length - 1)
  expect(decodedLines.length).toBe(validLines.length)
  return decodedLines.map((l, i) => [...l].filter((c) => c === '\ufffd').length - own[i]!)
}

function foundPerLine(bytes: Uint8Array): number[] {
  const lines = new Array<number>(Buffer.from(bytes).toString('latin1').split('\n').length).fill(0)
  for (const f of findInvalidUtf8(bytes)) lines[f.line - 1]!++
  return lines
}

const cases: Array<[string, number[]]> = [
  ['surrogate', [0xed, 0xa0, 0x80]],
  ['overlong slash', [0xc0, 0xaf]],
  ['overlong four-byte', [0xf0, 0x80, 0x80, 0x80]],
  ['above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ['F5 lead', [0xf5, 0x80, 0x80, 0x80]],
  ['cut three-byte', [0x61, 0xe2, 0x82]],
  ['cut three-byte before ASCII', [0xe2, 0x82, 0x61]],
  ['cut four-byte before a lead', [0xf0, 0x9f, 0x98, 0xe2, 0x82, 0xac]],
  ['lone continuations', [0x80, 0xbf, 0x80]],
  ['latin-1 é', [0x63, 0x61, 0x66, 0xe9, 0x3f]],
  ['FE FF', [0xfe, 0xff]],
  ['E0 overlong', [0xe0, 0x80, 0x80]],
  ['a real U+FFFD and a bad byte', [0xef, 0xbf, 0xbd, 0xff]]
]

describe('invalid UTF-8 counted as the decoder replaces it', () => {
  it.each(cases)('%s: one per U+FFFD the WHATWG decoder inserts', (_name, bytes) => {
    const b = Uint8Array.from(bytes)
    expect(findInvalidUtf8(b).length).toBe(replacedPerLine(b).reduce((a, n) => a + n, 0))
  })

  it('counts the line the reviewer imported as 9 (3 + 2 + 4), as the decoder does', () => {
    const line = Buffer.concat([Buffer.from('sur '), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from(' and '), Buffer.from([0xc0, 0xaf]), Buffer.from(' and '), Buffer.from([0xf0, 0x80, 0x80, 0x80])])
    expect(replacedPerLine(line)).toEqual([9])
    expect(findInvalidUtf8(line).length).toBe(9)
    expect(decodeUtf8(line, true).invalid.length).toBe(9)
  })

  it('agrees with the decoder line by line on every case joined into one file', () => {
    const file = Buffer.concat(cases.flatMap(([, bytes]) => [Buffer.from(bytes), Buffer.from('\n')]))
    expect(foundPerLine(file)).toEqual(replacedPerLine(file))
  })

  it('agrees with the decoder line by line on random bytes, and each offset is where that replacement starts', () => {
    let seed = 12345
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24
    // Bytes around the boundaries that matter: leads, continuations at each edge, newlines, ASCII.
    const pool = [0x0a, 0x61, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf4, 0xf5, 0xff]
    for (let round = 0; round < 500; round++) {
      const bytes = Uint8Array.from({ length: 1 + (next() % 40) }, () => pool[next() % pool.length]!)
      expect(foundPerLine(bytes), Buffer.from(bytes).toString('hex')).toEqual(replacedPerLine(bytes))
      findInvalidUtf8(bytes).forEach((f, i) => {
        // The text before a replacement holds exactly the replacements found before it.
        expect([...reference.decode(bytes.subarray(0, f.offset))].filter((c) => c === '\ufffd').length - countOwn(bytes.subarray(0, f.offset))).toBe(i)
      })
    }
  })
})

function countOwn(bytes: Uint8Array): number {
  return Buffer.from(bytes).toString('latin1').split('\u00ef\u00bf\u00bd').length - 1
}
