import { memo } from 'react'
import ReactMarkdown from 'react-markdown'
import remarkGfm from 'remark-gfm'
import remarkMath from 'remark-math'
import rehypeKatex from 'rehype-katex'
import { normalizeDisplayMath } from '../../../shared/markdown'
import { markdownComponents } from './ContentLink'

const remarkPlugins = [remarkGfm, remarkMath]
const rehypePlugins = [[rehypeKatex, { throwOnError: false, strict: 'ignore' }]] as const

/** Markdown with GitHub tables and LaTeX math ($…$, $$…$$) rendered by KaTeX. Raw HTML is not rendered. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins as never} components={markdownComponents}>
        {normalizeDisplayMath(text)}
      </ReactMarkdown>
    </div>
  )
})
