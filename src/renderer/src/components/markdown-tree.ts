import type { ReactElement } from 'react'
import renderMarkdown from 'react-markdown'
import { REMARK_PLUGINS, rehypePlugins } from '../../../shared/markdown/pipeline'
import { takePreparsedMarkdown } from '../first-page'
import { viewTextKey } from '../../../shared/markdown/view-texts'
import { markdownComponents } from './ContentLink'

/** Parsed trees kept: the items on screen and prefetched ahead, and text repeated from item to item (a rubric). */
const LIMIT = 64
const trees = new Map<string, ReactElement>()

/**
 * The rendered tree of a Markdown text whose first character sits at `sourceOffset` of its source, parsed once
 * (remark, rehype, KaTeX) and reused while the same text is shown again or was parsed ahead of time. A React element
 * is immutable, so one tree can be mounted any number of times.
 */
export function markdownTree(text: string, sourceOffset = 0): ReactElement {
  const key = viewTextKey(text, sourceOffset)
  const held = trees.get(key)
  if (held) {
    // Most recently used last, so the oldest is dropped first.
    trees.delete(key)
    trees.set(key, held)
    return held
  }
  const preparsed = takePreparsedMarkdown(text, sourceOffset)
  const tree = preparsed
    ? markdownTreeOf(preparsed)
    : renderMarkdown({ children: text, remarkPlugins: REMARK_PLUGINS, rehypePlugins: rehypePlugins(sourceOffset), components: markdownComponents })
  trees.set(key, tree)
  if (trees.size > LIMIT) trees.delete(trees.keys().next().value!)
  return tree
}

/** How many parsed trees are held (bounded, whatever the number of items seen). */
export function markdownTreesHeld(): number {
  return trees.size
}

/**
 * The rendered tree of an already parsed text (its hast, as the server sends it). It goes through react-markdown's
 * own last steps (URL checks, raw HTML as text, elements) in place of the parse, so it renders exactly what the parse
 * would have. The tree is consumed.
 */
export function markdownTreeOf(hast: unknown): ReactElement {
  return renderMarkdown({ children: '', rehypePlugins: [[replaceTree, hast]], components: markdownComponents })
}

/** A rehype step that puts `tree` in place of the (empty) parsed one. */
function replaceTree(tree: unknown) {
  return () => tree as never
}
