import { useLayoutEffect } from 'react'

// Input that comes between a swap drawn on the page and React following it (see queue-machine's Slot).

/** A key press as it was, to send again. */
const keyInit = (e: KeyboardEvent): KeyboardEventInit => ({
  key: e.key,
  code: e.code,
  location: e.location,
  repeat: e.repeat,
  isComposing: e.isComposing,
  ctrlKey: e.ctrlKey,
  shiftKey: e.shiftKey,
  altKey: e.altKey,
  metaKey: e.metaKey,
  bubbles: true,
  cancelable: true,
  composed: true
})

/**
 * A key, click or typed text before the item shown has become live is for that item: `settle` makes it live and
 * moves the focus into it first. A key was aimed where the focus was when it was pressed, in the item left: it goes
 * again where the focus is now (a character it types lands there too, as the browser enters it where the focus is
 * after the keydown), and is cancelled if that copy is. Text typed into the item left by other means is refused.
 */
export function useSwapInput(swapping: () => boolean, settle: () => void): void {
  useLayoutEffect(() => {
    const now = (e: Event) => {
      if (!swapping()) return
      const aimed = e.target
      settle()
      if (e.type === 'pointerdown' || aimed === document.activeElement) return
      e.stopImmediatePropagation()
      if (e instanceof KeyboardEvent) {
        if (!(document.activeElement ?? document.body).dispatchEvent(new KeyboardEvent('keydown', keyInit(e)))) e.preventDefault()
      } else e.preventDefault()
    }
    const events = ['keydown', 'pointerdown', 'beforeinput'] as const
    for (const e of events) window.addEventListener(e, now, true)
    return () => {
      for (const e of events) window.removeEventListener(e, now, true)
    }
  }, [swapping, settle])
}
