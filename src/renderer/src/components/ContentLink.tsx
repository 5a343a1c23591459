import type { ComponentProps, ReactNode } from 'react'
import { externalContentHref } from '../../../shared/content-links'
import { TableScroll } from './TableScroll'

/**
 * A link inside rendered content. Web links open outside the app (a new tab in browser mode; the system browser in
 * the desktop app, whose window-open handler sends them there); any other link is inert text, so content can never
 * navigate the workbench away.
 */
export function ContentLink({ href, children }: { href?: string | undefined; children?: ReactNode }) {
  const external = externalContentHref(href)
  if (!external) {
    return (
      <span className="content-link-inert" title={href ? `Link not followed: ${href}` : undefined}>
        {children}
      </span>
    )
  }
  return (
    <a href={external} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  )
}

export const markdownComponents = {
  a: ({ href, children }: { href?: string | undefined; children?: ReactNode }) => <ContentLink href={href}>{children}</ContentLink>,
  // A table in the text scrolls in its own box, which the keyboard reaches, rather than widening its pane.
  table: ({ node: _node, ...props }: ComponentProps<'table'> & { node?: unknown }) => (
    <TableScroll label="Table in the text">
      <table {...props} />
    </TableScroll>
  )
}
