import type { ReactElement } from 'react'
import type { Root } from 'hast'
import { takePreparsedMarkdown } from '../first-page'
import { viewTextKey } from '../../../shared/markdown/view-texts'
import { markdownComponents } from './ContentLink'
import { hastToReact } from './hast-to-react'
import { markdownParser } from './markdown-parser'

/** Parsed trees kept: the items on screen and prefetched ahead, and text repeated from item to item (a rubric). */
const LIMIT = 64
const trees = new Map<string, ReactElement>()

/**
 * The rendered tree of a Markdown text whose first character sits at `sourceOffset` of its source, parsed once
 * (remark, rehype, KaTeX) and reused while the same text is shown again or was parsed ahead of time. A React element
 * is immutable, so one tree can be mounted any number of times. Undefined when the text must be parsed and the
 * parser has not arrived yet (see loadMarkdownParser).
 */
export function markdownTree(text: string, sourceOffset = 0): ReactElement | undefined {
  const key = viewTextKey(text, sourceOffset)
  const held = trees.get(key)
  if (held) {
    // Most recently used last, so the oldest is dropped first.
    trees.delete(key)
    trees.set(key, held)
    return held
  }
  const preparsed = takePreparsedMarkdown(text, sourceOffset)
  const parser = markdownParser()
  if (!preparsed && !parser) return undefined
  const tree = markdownTreeOf(preparsed ?? parser!.markdownHast(text, sourceOffset))
  trees.set(key, tree)
  if (trees.size > LIMIT) trees.delete(trees.keys().next().value!)
  return tree
}

/** How many parsed trees are held (bounded, whatever the number of items seen). */
export function markdownTreesHeld(): number {
  return trees.size
}

/**
 * The rendered tree of an already parsed text (its hast, as the pipeline gives it or the server sends it), through
 * react-markdown's own last steps (URL checks, raw HTML as text, elements). The tree is consumed.
 */
export function markdownTreeOf(hast: unknown): ReactElement {
  return hastToReact(hast as Root, markdownComponents)
}
