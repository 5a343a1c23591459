/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import type { Page } from 'playwright-core'

// Geometry checks of one rendered screen, run in the page: what a person would call a broken layout.

export interface LayoutProblem {
  check: 'overlap' | 'page-scroll' | 'dead-strip' | 'legend' | 'line-length' | 'overflow'
  detail: string
}

/** Runs every layout check on the screen as it is now; an empty list is a clean screen. */
export function layoutProblems(page: Page, opts: { maxLineChars: number }): Promise<LayoutProblem[]> {
  return page.evaluate(({ maxLineChars }) => {
    const problems: Array<{ check: string; detail: string }> = []
    const describe = (el: Element) => {
      const h = el as HTMLElement
      const text = (h.getAttribute('aria-label') ?? h.innerText ?? '').replace(/\s+/g, ' ').trim().slice(0, 40)
      return `${el.tagName.toLowerCase()}${h.className && typeof h.className === 'string' ? `.${h.className.split(' ').join('.')}` : ''} "${text}"`
    }

    /** The part of an element that can be seen: its box clipped by every scrolling or clipping ancestor and the viewport. */
    const visibleRect = (el: Element): DOMRect | null => {
      // Content of a closed <details>, or under display:none / visibility:hidden / opacity 0, is not seen.
      if (!el.checkVisibility({ contentVisibilityAuto: true, opacityProperty: true, visibilityProperty: true })) return null
      let r = el.getBoundingClientRect()
      if (r.width < 1 || r.height < 1) return null
      let left = r.left
      let top = r.top
      let right = r.right
      let bottom = r.bottom
      for (let p = el.parentElement; p; p = p.parentElement) {
        const s = getComputedStyle(p)
        if (s.display === 'none' || s.visibility === 'hidden') return null
        if (s.overflowX !== 'visible' || s.overflowY !== 'visible' || s.clip !== 'auto') {
          const pr = p.getBoundingClientRect()
          if (s.overflowX !== 'visible') {
            left = Math.max(left, pr.left)
            right = Math.min(right, pr.right)
          }
          if (s.overflowY !== 'visible') {
            top = Math.max(top, pr.top)
            bottom = Math.min(bottom, pr.bottom)
          }
        }
      }
      left = Math.max(left, 0)
      top = Math.max(top, 0)
      right = Math.min(right, window.innerWidth)
      bottom = Math.min(bottom, window.innerHeight)
      if (right - left < 1 || bottom - top < 1) return null
      r = new DOMRect(left, top, right - left, bottom - top)
      return r
    }

    /** The sticky or fixed box that holds `el`, if any. */
    const stickyHost = (el: Element): Element | null => {
      for (let p: Element | null = el; p; p = p.parentElement) {
        const position = getComputedStyle(p).position
        if (position === 'sticky' || position === 'fixed') return p
      }
      return null
    }
    /** The nearest ancestor of `el` that scrolls vertically. */
    const scroller = (el: Element): Element | null => {
      for (let p = el.parentElement; p; p = p.parentElement) if (/(auto|scroll)/.test(getComputedStyle(p).overflowY)) return p
      return null
    }
    /**
     * True when `bar` sits in a sticky bar and `content` has scrolled beneath it inside that bar's own scrolling pane:
     * the bar is meant to cover what passes under it, as a page header does.
     */
    const underStickyBar = (bar: Element, content: Element): boolean => {
      const host = stickyHost(bar)
      if (!host || host.contains(content) || stickyHost(content)) return false
      const pane = scroller(content)
      return pane !== null && pane.contains(host) && pane.scrollTop > 0
    }

    // 1. Visible interactive elements never overlap (one inside another, like a button in a label, is fine).
    const interactive = [
      ...document.querySelectorAll('button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button], [role=radio], [role=tab], [role=checkbox], [tabindex="0"]')
    ].filter((el) => !el.closest('.visually-hidden') && !el.closest('[aria-hidden=true]'))
    const boxes = interactive.map((el) => ({ el, r: visibleRect(el) })).filter((b): b is { el: Element; r: DOMRect } => b.r !== null)
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!
        const b = boxes[j]!
        if (a.el.contains(b.el) || b.el.contains(a.el)) continue
        if (underStickyBar(a.el, b.el) || underStickyBar(b.el, a.el)) continue
        const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left)
        const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top)
        // Borders that touch are not an overlap; covering each other by more than two pixels both ways is.
        if (w > 2 && h > 2) problems.push({ check: 'overlap', detail: `${describe(a.el)} overlaps ${describe(b.el)} by ${Math.round(w)}×${Math.round(h)}px` })
      }
    }

    // 2. The page itself never scrolls sideways (nor down: screens scroll inside their own panes).
    const root = document.scrollingElement ?? document.documentElement
    if (root.scrollWidth > window.innerWidth + 1) problems.push({ check: 'page-scroll', detail: `page is ${root.scrollWidth}px wide in a ${window.innerWidth}px window` })
    if (root.scrollHeight > window.innerHeight + 1) problems.push({ check: 'page-scroll', detail: `page is ${root.scrollHeight}px tall in a ${window.innerHeight}px window` })

    // 3. No dead strips: the workbench fills the window, and its content pane reaches the bottom.
    const app = document.querySelector('.app')
    const content = document.querySelector('.content')
    if (app && Math.abs(app.getBoundingClientRect().height - window.innerHeight) > 1) {
      problems.push({ check: 'dead-strip', detail: `the workbench is ${Math.round(app.getBoundingClientRect().height)}px tall in a ${window.innerHeight}px window` })
    }
    if (content && Math.abs(content.getBoundingClientRect().bottom - window.innerHeight) > 1) {
      problems.push({ check: 'dead-strip', detail: `the content pane ends ${Math.round(window.innerHeight - content.getBoundingClientRect().bottom)}px above the bottom` })
    }
    // At the normal text size the top bar is one line; larger text may wrap it, never overlap it.
    const bar = document.querySelector('.topbar')
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize)
    if (bar && rem <= 15 && bar.getBoundingClientRect().height > 64) problems.push({ check: 'dead-strip', detail: `the top bar wraps to ${Math.round(bar.getBoundingClientRect().height)}px` })

    // 4. The key legend fits: every entry is inside it, none cut off.
    const legend = document.querySelector('[data-testid=legend]')
    if (legend) {
      const lr = legend.getBoundingClientRect()
      for (const entry of legend.children) {
        const r = entry.getBoundingClientRect()
        if (r.right > lr.right + 1 || r.bottom > lr.bottom + 1) problems.push({ check: 'legend', detail: `legend entry cut off: ${describe(entry)}` })
      }
    }

    // 5. Reading text in one column stays at most ~85 characters a line.
    const probe = document.createElement('span')
    probe.style.cssText = 'position:absolute;visibility:hidden;white-space:pre'
    for (const p of document.querySelectorAll('.markdown p, .markdown li, .view-fields p')) {
      const r = visibleRect(p)
      if (!r || (p.textContent ?? '').length < maxLineChars * 1.5) continue
      p.appendChild(probe)
      probe.textContent = 'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ abcdefghijklmnopqrstuvwxyz 0123456789 abcdefghijkl'.slice(0, 85)
      const perChar = probe.getBoundingClientRect().width / 85
      probe.remove()
      const chars = p.getBoundingClientRect().width / perChar
      if (chars > maxLineChars) problems.push({ check: 'line-length', detail: `${describe(p)} is ${Math.round(chars)} characters wide` })
    }

    // 6. Nothing inside a pane is wider than the pane without scrolling in a box of its own.
    for (const pane of document.querySelectorAll('.annotate-form, .final-form, .import-report, .adjudication-detail')) {
      const el = pane as HTMLElement
      if (visibleRect(el) && el.scrollWidth > el.clientWidth + 1) problems.push({ check: 'overflow', detail: `${describe(el)} content is ${el.scrollWidth}px in ${el.clientWidth}px` })
    }
    return problems as never
  }, opts)
}
