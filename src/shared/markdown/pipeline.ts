import rehypeKatex from 'rehype-katex'
import remarkGfm from 'remark-gfm'
import remarkMath from 'remark-math'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import { unified, type PluggableList } from 'unified'
import { VFile } from 'vfile'
import type { Root } from 'hast'
import { mapLatexDelimiters, remarkLiteralDollars } from './latex-delimiters'
import { prepareHast } from './prepare-hast'
import { rehypeSourceOffsets, remarkDisplayMathLines } from './source-offsets'

// The one Markdown + maths pipeline: GFM, `$…$` (not money), `$$…$$`, `\(…\)` and `\[…\]` maths, source offsets on every rendered run, KaTeX.
// The window renders with it through react-markdown; the browser-mode server runs the same steps under Node to send
// an item's texts already parsed.

export const REMARK_PLUGINS: PluggableList = [remarkGfm, remarkMath, remarkLiteralDollars as never, remarkDisplayMathLines as never]

const KATEX_OPTIONS = { throwOnError: false, strict: 'ignore' } as const

/** The rehype steps for a text whose first character sits at `sourceOffset` of the text quotes are taken from. */
export function rehypePlugins(sourceOffset: number): PluggableList {
  return [
    [rehypeSourceOffsets as never, { base: sourceOffset }],
    [rehypeKatex, KATEX_OPTIONS]
  ]
}

/**
 * Parses `text` to the tree react-markdown builds from it with these plugins (its processor: remark-parse, the remark
 * plugins, remark-rehype with raw HTML kept as nodes, the rehype plugins), without turning it into elements.
 */
export function markdownHast(text: string, sourceOffset = 0): unknown {
  const processor = unified()
    .use(remarkParse)
    .use(REMARK_PLUGINS)
    .use(remarkRehype, { allowDangerousHtml: true })
    .use(rehypePlugins(sourceOffset))
  // `\(…\)` and `\[…\]` read as maths; every offset stays that of `text`.
  const written = mapLatexDelimiters(text)
  const file = new VFile()
  file.value = written.text
  if (written.spans.length) file.data.delimited = written.spans
  return processor.runSync(processor.parse(file), file)
}

/**
 * A parsed tree without the parser's line and column positions, for sending: the rendered text's source offsets are
 * already in its properties (data-src-start, data-src-end), nothing drawn reads the positions, and they are a good
 * part of the bytes.
 */
export function withoutPositions(node: unknown): unknown {
  if (node === null || typeof node !== 'object') return node
  if (Array.isArray(node)) return node.map(withoutPositions)
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k]) => k !== 'position')
      .map(([k, v]) => [k, withoutPositions(v)])
  )
}

/**
 * A text's tree as the browser-mode server sends it in a page: parsed, prepared as the window prepares a tree it
 * parses (checks done, each formula's inside as one HTML string; see prepareHast) and without positions.
 */
export function sendableHast(text: string, sourceOffset = 0): unknown {
  return withoutPositions(prepareHast(markdownHast(text, sourceOffset) as Root))
}
