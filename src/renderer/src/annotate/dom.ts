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

/** Moves keyboard focus to a stop of the form: its text box where it has one, else the stop itself. */
export function focusStopElement(path: string, scope?: RefObject<HTMLElement | null>): boolean {
  const stop = stopElement(path, scope)
  if (!stop) return false
  const primary = stop.querySelector<HTMLElement>('[data-primary]') ?? stop
  primary.focus({ preventScroll: false })
  // A number box is entered to replace its value (the rubric's 0), as a key press on a scale replaces its choice.
  if (primary instanceof HTMLInputElement && primary.inputMode === 'decimal') primary.select()
  primary.scrollIntoView({ block: 'nearest' })
  return true
}

/** The text currently selected on the page, if any. */
export function selectedText(): string {
  return window.getSelection()?.toString() ?? ''
}
