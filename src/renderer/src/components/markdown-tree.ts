import type { ReactElement } from 'react'
import renderMarkdown from 'react-markdown'
import remarkGfm from 'remark-gfm'
import remarkMath from 'remark-math'
import rehypeKatex from 'rehype-katex'
import { rehypeSourceOffsets, remarkDisplayMathLines } from '../../../shared/markdown'
import { markdownComponents } from './ContentLink'

const remarkPlugins = [remarkGfm, remarkMath, remarkDisplayMathLines]
const katexOptions = { throwOnError: false, strict: 'ignore' } as const

/** Parsed trees kept: the items on screen and prefetched ahead, and text repeated from item to item (a rubric). */
const LIMIT = 64
const trees = new Map<string, ReactElement>()

/**
 * The rendered tree of a Markdown text whose first character sits at `sourceOffset` of its source, parsed once
 * (remark, rehype, KaTeX) and reused while the same text is shown again or was parsed ahead of time. A React element
 * is immutable, so one tree can be mounted any number of times.
 */
export function markdownTree(text: string, sourceOffset = 0): ReactElement {
  const key = `${sourceOffset}\u0000${text}`
  const held = trees.get(key)
  if (held) {
    // Most recently used last, so the oldest is dropped first.
    trees.delete(key)
    trees.set(key, held)
    return held
  }
  const tree = renderMarkdown({
    children: text,
    remarkPlugins: remarkPlugins as never,
    rehypePlugins: [
      [rehypeSourceOffsets, { base: sourceOffset }],
      [rehypeKatex, katexOptions]
    ] as never,
    components: markdownComponents
  })
  trees.set(key, tree)
  if (trees.size > LIMIT) trees.delete(trees.keys().next().value!)
  return tree
}

/** How many parsed trees are held (bounded, whatever the number of items seen). */
export function markdownTreesHeld(): number {
  return trees.size
}
