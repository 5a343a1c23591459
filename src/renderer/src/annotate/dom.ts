import type { RefObject } from 'react'

// Helpers that touch the page itself (kept apart from the pure form logic).

/** Whether key events come from a place where the person types text. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).tagName !== 'string') return false
  const el = target as HTMLElement
  const tag = el.tagName
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true
  if (tag === 'INPUT') {
    const type = (el as HTMLInputElement).type
    return !['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file'].includes(type)
  }
  return el.isContentEditable === true
}

/**
 * A stop of the form, looked up in `scope` (the form's item) where one is given: another item's form (the next one,
 * held ready) has stops of the same paths.
 */
export function stopElement(path: string, scope?: RefObject<HTMLElement | null>): HTMLElement | null {
  return (scope?.current ?? document).querySelector<HTMLElement>(`[data-stop="${CSS.escape(path)}"]`)
}

/** Where a stop takes the keyboard: its text box where it has one, else the stop itself. */
function primaryOf(stop: HTMLElement): HTMLElement {
  return stop.querySelector<HTMLElement>('[data-primary]') ?? stop
}

/**
 * Moves keyboard focus to a stop of the form. The stop itself takes it, so single-key shortcuts stay shortcuts; only
 * `enter` (Tab, Enter, a click) puts the caret in its text box where it has one.
 */
export function focusStopElement(path: string, scope?: RefObject<HTMLElement | null>, enter = false): boolean {
  const stop = stopElement(path, scope)
  if (!stop) return false
  const primary = enter ? primaryOf(stop) : stop
  primary.focus({ preventScroll: false })
  // A number box is entered to replace its value (the rubric's 0), as a key press on a scale replaces its choice.
  if (primary instanceof HTMLInputElement && primary.inputMode === 'decimal') primary.select()
  primary.scrollIntoView({ block: 'nearest' })
  return true
}

/**
 * Focuses the first stop of an item without scrolling or selecting, for the moment it becomes the one shown (the
 * item's own focus on its first field, see ItemWorkspace, follows); false where it has none. The stop, never its text
 * box: a key pressed as an item opens is a shortcut, not a letter.
 */
export function focusFirstStop(item: HTMLElement): boolean {
  const stop = item.querySelector<HTMLElement>('[data-stop]')
  if (stop) stop.focus({ preventScroll: true })
  return stop !== null
}

/** What the keyboard can reach in an item: controls, links, and anything given a tab index. */
const REACHABLE = 'a[href], button, input, select, textarea, summary, iframe, [tabindex], [contenteditable]:not([contenteditable="false"])'
interface HeldTabOrder {
  /** Each control taken out, with the `tabindex` it had (or was given while held), to put back. */
  kept: Map<HTMLElement, string | null>
  /** Controls the item gains while held (a formula that turns out to scroll, say) are taken out too. */
  watch: MutationObserver
}
const heldTabOrder = new WeakMap<HTMLElement, HeldTabOrder>()

/**
 * Takes an item that is not on screen out of the tab order (every control's `tabindex` set to -1, what each had
 * kept), without `inert`, whose lifting restyles the whole item.
 */
export function holdOutOfTabOrder(item: HTMLElement): void {
  if (heldTabOrder.has(item)) return
  const kept = new Map<HTMLElement, string | null>()
  const take = (el: HTMLElement) => {
    const value = el.getAttribute('tabindex')
    // -1 is what holding writes; any other value is the item's own, to come back.
    if (!kept.has(el) || value !== '-1') kept.set(el, value)
    if (value !== '-1') el.tabIndex = -1
  }
  const takeWithin = (node: Node) => {
    if (!(node instanceof HTMLElement)) return
    if (node.matches(REACHABLE)) take(node)
    for (const el of node.querySelectorAll<HTMLElement>(REACHABLE)) take(el)
  }
  const changed = (records: MutationRecord[]) => {
    for (const r of records) {
      if (r.type === 'attributes') takeWithin(r.target)
      else r.addedNodes.forEach(takeWithin)
    }
  }
  const watch = new MutationObserver(changed)
  takeWithin(item)
  watch.observe(item, { subtree: true, childList: true, attributes: true, attributeFilter: ['tabindex', 'href', 'contenteditable'] })
  heldTabOrder.set(item, { kept, watch })
}

/** Puts an item taken out of the tab order back as it was. */
export function restoreTabOrder(item: HTMLElement): void {
  const held = heldTabOrder.get(item)
  if (!held) return
  heldTabOrder.delete(item)
  const late = held.watch.takeRecords()
  held.watch.disconnect()
  for (const r of late) {
    const target = r.target
    if (r.type === 'attributes' && target instanceof HTMLElement && target.getAttribute('tabindex') !== '-1') held.kept.set(target, target.getAttribute('tabindex'))
  }
  for (const [el, value] of held.kept) {
    if (value === null) el.removeAttribute('tabindex')
    else el.setAttribute('tabindex', value)
  }
}

/** The text currently selected on the page, if any. */
export function selectedText(): string {
  return window.getSelection()?.toString() ?? ''
}
