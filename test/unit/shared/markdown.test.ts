import { describe, expect, it } from 'vitest'
import { normalizeDisplayMath } from '../../../src/shared/markdown'

describe('display math normalisation', () => {
  it('turns a one-line $$…$$ into a math block', () => {
    expect(normalizeDisplayMath('text\n\n$$a = b,$$\n\nmore')).toBe('text\n\n$$\na = b,\n$$\n\nmore')
  })
  it('leaves inline math, existing blocks and code fences alone', () => {
    const md = 'inline $x$ and $$y$$ in a sentence\n$$\nz\n$$\n```\n$$not math$$\n```'
    expect(normalizeDisplayMath(md)).toBe(md)
  })
})
