import { useEffect, useRef, useState, type ReactNode } from 'react'

/**
 * A table's own scrolling box: a table wider than its pane scrolls inside it, never the page, and the box is a
 * labelled region in the tab order, so the arrow keys scroll it without a mouse. While columns lie beyond its right
 * edge the box says so (`data-more`, drawn as a fading edge and a "more columns" cue), since its scrollbar sits
 * at the bottom of what may be a tall table.
 */
export function TableScroll({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null)
  const [more, setMore] = useState(false)
  const [overflows, setOverflows] = useState(false)
  useEffect(() => {
    const el = box.current
    if (!el) return
    const measure = () => {
      setOverflows(el.scrollWidth > el.clientWidth + 1)
      setMore(el.scrollLeft + el.clientWidth < el.scrollWidth - 1)
    }
    measure()
    el.addEventListener('scroll', measure, { passive: true })
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure)
    observer?.observe(el)
    if (el.firstElementChild) observer?.observe(el.firstElementChild)
    return () => {
      el.removeEventListener('scroll', measure)
      observer?.disconnect()
    }
  }, [])
  return (
    <div className="table-scroll-frame" data-overflow={overflows ? 'x' : undefined} data-more={more ? 'right' : undefined}>
      <div ref={box} className={className ? `table-scroll ${className}` : 'table-scroll'} tabIndex={0} role="region" aria-label={label}>
        {children}
      </div>
      {overflows && (
        <span className="table-scroll-more" aria-hidden="true">
          {more ? 'more columns →' : '← scrolled to the last column'}
        </span>
      )}
    </div>
  )
}
