import remarkMath from 'remark-math'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import { unified } from 'unified'
import { describe, expect, it } from 'vitest'
import { rehypeSourceOffsets, remarkDisplayMathLines } from '../../../src/shared/markdown/source-offsets'

// The renderer's tree transforms, run on the same remark/rehype pipeline without a browser: offsets on every
// rendered text run and formula point at exactly the source they came from.

interface Node {
  type: string
  tagName?: string
  value?: string
  properties?: Record<string, unknown>
  children?: Node[]
}

function render(markdown: string, base = 0): Node {
  // The transforms declare only the node fields they touch, so they are typed loosely for unified.
  const processor = unified()
    .use(remarkParse)
    .use(remarkMath)
    .use(remarkDisplayMathLines as never)
    .use(remarkRehype)
    .use(rehypeSourceOffsets as never, { base })
  return processor.runSync(processor.parse(markdown), markdown) as Node
}

/** Every element that carries offsets, with its classes and the text under it. */
function runs(tree: Node): Array<{ start: number; end: number; classes: string[]; text: string }> {
  const out: Array<{ start: number; end: number; classes: string[]; text: string }> = []
  const text = (n: Node): string => (n.type === 'text' ? (n.value ?? '') : (n.children ?? []).map(text).join(''))
  const walk = (n: Node) => {
    if (n.type === 'element' && typeof n.properties?.dataSrcStart === 'number') {
      out.push({ start: n.properties.dataSrcStart, end: n.properties.dataSrcEnd as number, classes: (n.properties.className as string[]) ?? [], text: text(n) })
      if ((n.properties.className as string[] | undefined)?.includes('md-math')) return
    }
    ;(n.children ?? []).forEach(walk)
  }
  walk(tree)
  return out
}

describe('source offsets on rendered Markdown', () => {
  const md = 'The rate is $\\frac{a}{b}$ for **every** head.\n\n$$\n\\sum_{i=1}^n x_i\n$$\n\nEscaped \\_ and done.'

  it('marks each text run and each formula (whole, with its dollars) with the source it came from', () => {
    const found = runs(render(md))
    const slices = found.map((r) => md.slice(r.start, r.end))
    expect(slices).toContain('The rate is ')
    expect(slices).toContain('$\\frac{a}{b}$')
    expect(slices).toContain('every')
    expect(slices).toContain('$$\n\\sum_{i=1}^n x_i\n$$')
    for (const r of found.filter((f) => !f.classes.includes('md-math'))) {
      // A text run renders its source, less escapes.
      expect(md.slice(r.start, r.end).replace(/\\(.)/g, '$1')).toBe(r.text)
    }
    expect(found.find((r) => md.slice(r.start, r.end) === '$\\frac{a}{b}$')!.classes).toEqual(['md-math', 'md-math-inline'])
    expect(found.find((r) => r.text.includes('\\sum'))!.classes).toEqual(['md-math', 'md-math-display'])
  })

  it('adds the offset of a section to every position', () => {
    const base = runs(render(md))
    const shifted = runs(render(md, 100))
    expect(shifted.map((r) => [r.start - 100, r.end - 100])).toEqual(base.map((r) => [r.start, r.end]))
  })

  it('shows a one-line $$…$$ paragraph as display maths, keeping its own source positions', () => {
    const line = 'text\n\n$$ a = b, $$\n\nmore $$y$$ inline'
    const found = runs(render(line))
    const display = found.filter((r) => r.classes.includes('md-math-display'))
    expect(display.map((r) => line.slice(r.start, r.end))).toEqual(['$$ a = b, $$'])
    const inline = found.filter((r) => r.classes.includes('md-math-inline'))
    expect(inline.map((r) => line.slice(r.start, r.end))).toEqual(['$$y$$'])
  })

  it('shows $$…$$ alone on a line inside a paragraph as display maths, and $$…$$ within a line as inline', () => {
    const para = 'The total is\n$$ \\sum_i x_i $$\nwhere x counts, and $$y$$ stays inline.'
    const found = runs(render(para))
    expect(found.filter((r) => r.classes.includes('md-math-display')).map((r) => para.slice(r.start, r.end))).toEqual(['$$ \\sum_i x_i $$'])
    expect(found.filter((r) => r.classes.includes('md-math-inline')).map((r) => para.slice(r.start, r.end))).toEqual(['$$y$$'])
  })

  it('leaves code fences alone', () => {
    const fenced = '```\n$$not math$$\n```'
    expect(runs(render(fenced)).some((r) => r.classes.includes('md-math'))).toBe(false)
  })
})
