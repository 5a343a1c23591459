import { memo, useMemo } from 'react'
import ReactMarkdown from 'react-markdown'
import remarkGfm from 'remark-gfm'
import remarkMath from 'remark-math'
import rehypeKatex from 'rehype-katex'
import { rehypeSourceOffsets, remarkDisplayMathLines } from '../../../shared/markdown'
import { markdownComponents } from './ContentLink'

const remarkPlugins = [remarkGfm, remarkMath, remarkDisplayMathLines]
const katexOptions = { throwOnError: false, strict: 'ignore' } as const

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
 * formula carries its source offsets (data-src-start/-end), which is how a selection becomes an exact quote.
 */
export const Markdown = memo(function Markdown({ text, sourceOffset = 0, quoteSource }: MarkdownProps) {
  const rehypePlugins = useMemo(() => [[rehypeSourceOffsets, { base: sourceOffset }], [rehypeKatex, katexOptions]], [sourceOffset])
  return (
    <div className="markdown" data-quote-source={quoteSource}>
      <ReactMarkdown remarkPlugins={remarkPlugins as never} rehypePlugins={rehypePlugins as never} components={markdownComponents}>
        {text}
      </ReactMarkdown>
    </div>
  )
})
