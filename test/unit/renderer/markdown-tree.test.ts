import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import ReactMarkdown from 'react-markdown'
import remarkGfm from 'remark-gfm'
import remarkMath from 'remark-math'
import rehypeKatex from 'rehype-katex'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { rehypeSourceOffsets, remarkDisplayMathLines } from '../../../src/shared/markdown/source-offsets'
import { markdownComponents } from '../../../src/renderer/src/components/ContentLink'
import { markdownTree as treeOrUndefined, markdownTreeOf, markdownTreesHeld } from '../../../src/renderer/src/components/markdown-tree'
import { loadMarkdownParser } from '../../../src/renderer/src/components/markdown-parser'
import { markdownHast, sendableHast, withoutPositions } from '../../../src/shared/markdown/pipeline'
import { prepareHast } from '../../../src/shared/markdown/prepare-hast'
import type { Root } from 'hast'
import { fromHtml } from 'hast-util-from-html'

const text = '## Method\n\nWe fit $y = ax + b$ on **120** samples ([notes](https://example.org)).\n\n$$\n\\sum_i x_i^2\n$$\n\n| a | b |\n|---|---|\n| 1 | 2 |\n'

/** The component as the workbench rendered it before trees were kept: parsed on every render. */
function parsedEachTime(source: string, base: number): string {
  return renderToStaticMarkup(
    createElement(ReactMarkdown, {
      remarkPlugins: [remarkGfm, remarkMath, remarkDisplayMathLines] as never,
      rehypePlugins: [
        [rehypeSourceOffsets, { base }],
        [rehypeKatex, { throwOnError: false, strict: 'ignore' }]
      ] as never,
      components: markdownComponents,
      children: source
    })
  )
}

/**
 * The document a browser builds from `html`: parsed (entities decoded), without positions, each inline style's
 * declarations as written less the empty one a trailing semicolon leaves. Formulas come as HTML from KaTeX's own
 * markup (written `height:1em;`) where React writes the same declarations (`height:1em`).
 */
function dom(html: string): unknown {
  const styles = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(styles)
    if (node === null || typeof node !== 'object') return node
    return Object.fromEntries(
      Object.entries(node)
        .filter(([k]) => k !== 'position')
        .map(([k, v]) => [k, k === 'style' && typeof v === 'string' ? v.split(';').filter((d) => d.trim()).join(';') : styles(v)])
    )
  }
  return styles(fromHtml(html, { fragment: true }))
}

/** The tree of a text, the parser loaded (see beforeAll). */
function markdownTree(source: string, base: number) {
  const tree = treeOrUndefined(source, base)
  if (!tree) throw new Error('the parser is not loaded')
  return tree
}

describe('parsed Markdown trees', () => {
  beforeAll(async () => {
    await loadMarkdownParser()
  })

  it('wait for the parser: a text that needs parsing has no tree until its chunk arrives, then the same as parsing gives', async () => {
    vi.resetModules()
    const fresh = await import('../../../src/renderer/src/components/markdown-tree')
    expect(fresh.markdownTree(text, 3)).toBeUndefined()
    await (await import('../../../src/renderer/src/components/markdown-parser')).loadMarkdownParser()
    expect(dom(renderToStaticMarkup(fresh.markdownTree(text, 3)!))).toEqual(dom(parsedEachTime(text, 3)))
  })

  it('render the document parsing on every render gave, offsets included', () => {
    for (const base of [0, 37]) expect(dom(renderToStaticMarkup(markdownTree(text, base)))).toEqual(dom(parsedEachTime(text, base)))
    expect(renderToStaticMarkup(markdownTree(text, 37))).toContain('data-src-start="')
    expect(renderToStaticMarkup(markdownTree(text, 37))).not.toBe(renderToStaticMarkup(markdownTree(text, 0)))
  })

  it('render a tree parsed elsewhere and sent as JSON, without positions, as parsing here does', () => {
    const risky = `${text}\n<b>raw html</b> and [a script link](javascript:alert(1))\n`
    const sent = (source: string, base: number) => JSON.parse(JSON.stringify(withoutPositions(markdownHast(source, base)))) as unknown
    for (const [source, base] of [[text, 0], [text, 37], [risky, 5]] as const) {
      expect(JSON.stringify(sent(source, base))).not.toContain('"position"')
      expect(dom(renderToStaticMarkup(markdownTreeOf(sent(source, base))))).toEqual(dom(parsedEachTime(source, base)))
    }
    expect(renderToStaticMarkup(markdownTreeOf(sent(risky, 0)))).not.toContain('javascript:')
  })

  it('render a tree prepared where it was parsed (as the server sends it) as parsing here does; preparing again changes nothing', () => {
    const risky = `${text}\n<b>raw html</b> and [a script link](javascript:alert(1))\n`
    const sent = (source: string, base: number) => JSON.parse(JSON.stringify(sendableHast(source, base))) as unknown
    for (const [source, base] of [[text, 0], [text, 37], [risky, 5]] as const) {
      expect(dom(renderToStaticMarkup(markdownTreeOf(sent(source, base))))).toEqual(dom(parsedEachTime(source, base)))
      const once = sent(source, base) as Root
      expect(prepareHast(structuredClone(once))).toEqual(once)
    }
    expect(renderToStaticMarkup(markdownTreeOf(sent(risky, 0)))).not.toContain('javascript:')
    // Each formula travels as one string: the sent tree holds none of KaTeX's inner elements.
    const json = JSON.stringify(sent(text, 0))
    expect(json).toContain('"__html":"<span class=\\"katex-mathml\\">')
    expect(JSON.stringify(withoutPositions(markdownHast(text, 0)))).toContain('"tagName":"math"')
    expect(json).not.toContain('"tagName":"math"')
    expect(json).not.toContain('"mord"]')
  })

  it('parse a text once per offset and hold a bounded number of them', () => {
    expect(markdownTree(text, 5)).toBe(markdownTree(text, 5))
    expect(markdownTree(text, 5)).not.toBe(markdownTree(text, 6))
    const kept = markdownTree('kept: shown on every item', 0)
    for (let i = 0; i < 200; i++) {
      markdownTree(`item ${i}`, 0)
      if (i % 10 === 0) markdownTree('kept: shown on every item', 0)
    }
    expect(markdownTreesHeld()).toBeLessThanOrEqual(64)
    expect(markdownTree('kept: shown on every item', 0)).toBe(kept)
  })
})
