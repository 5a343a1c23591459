import type { ReactNode } from 'react'

/**
 * A table's own scrolling box: a table wider than its pane scrolls inside it, never the page, and the box is a
 * labelled region in the tab order, so the arrow keys scroll it without a mouse.
 */
export function TableScroll({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div className={className ? `table-scroll ${className}` : 'table-scroll'} tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  )
}
