import { memo, useEffect, useRef, useSyncExternalStore } from 'react'
import { markdownTree } from './markdown-tree'
import { loadMarkdownParser, markdownParser, onMarkdownParser } from './markdown-parser'

export interface MarkdownProps {
  text: string
  /**
   * Where `text` starts in the text quotes are taken from (a section of a proposal starts inside the proposal), so
   * rendered spans carry offsets into that whole text.
   */
  sourceOffset?: number
  /** The view path of that text (`a.markdown`, `question`): selections inside map back to it. */
  quoteSource?: string
}

/**
 * The one Markdown + maths renderer: GitHub tables, LaTeX ($…$, $$…$$) by KaTeX, no raw HTML. Every text run and
 * formula carries its source offsets (data-src-start/-end), which is how a selection becomes an exact quote. Each text
 * is parsed once (markdown-tree), so showing it again, or an item parsed while it waited in the queue, costs no parse.
 * A text shown before the parser's chunk has arrived waits for it in place (marked data-parsing), the rest of the
 * screen drawn, and is drawn the moment the chunk arrives.
 */
export const Markdown = memo(function Markdown({ text, sourceOffset = 0, quoteSource }: MarkdownProps) {
  const root = useRef<HTMLDivElement>(null)
  useScrollableFormulasFocusable(root, text)
  // Re-rendered when the parser arrives; a state change, not Suspense, whose reveal React would hold back.
  useSyncExternalStore(onMarkdownParser, markdownParser)
  const tree = markdownTree(text, sourceOffset)
  useEffect(() => {
    if (!tree) void loadMarkdownParser()
  }, [tree])
  return (
    <div className="markdown" data-quote-source={quoteSource} data-parsing={tree ? undefined : ''} ref={root}>
      {tree}
    </div>
  )
})

/**
 * A display formula wider than its column scrolls in its own box; a box that scrolls must be reachable by keyboard
 * (arrow keys scroll it once focused). Only formulas that overflow become tab stops, so the reading order stays short.
 */
function useScrollableFormulasFocusable(root: React.RefObject<HTMLDivElement | null>, text: string): void {
  useEffect(() => {
    const el = root.current
    if (!el) return
    const mark = () => {
      for (const box of el.querySelectorAll<HTMLElement>('.katex-display')) {
        if (box.scrollWidth > box.clientWidth + 1) {
          box.tabIndex = 0
          box.setAttribute('role', 'group')
          box.setAttribute('aria-label', 'Formula (scrolls sideways)')
          box.dataset.scrolls = ''
        } else if (box.hasAttribute('tabindex')) {
          box.removeAttribute('tabindex')
          box.removeAttribute('role')
          box.removeAttribute('aria-label')
          delete box.dataset.scrolls
        }
      }
    }
    // Observing reports the box once laid out, and again on every resize: no layout forced while the item mounts.
    const observer = new ResizeObserver(mark)
    observer.observe(el)
    return () => observer.disconnect()
  }, [root, text])
}
