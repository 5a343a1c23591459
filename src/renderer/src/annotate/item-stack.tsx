import { memo, useLayoutEffect, useMemo, useRef, type FocusEvent } from 'react'
import type { BlindedItem } from '../../../shared/contract/annotation-schemas'
import { focusFirstStop, holdOutOfTabOrder, restoreTabOrder } from './dom'
import { ItemWorkspace } from './ItemWorkspace'
import type { Slot } from './queue-machine'
import type { Submission, SubmitFailure } from './submission'

// The queue's stack of items in one cell: the one on screen and the next one, built behind it (queue-machine's Slot).

/** What an item's workspace calls back; one object for the runner's life, so held items are not rendered again. */
export interface SlotActions {
  navigate(item: BlindedItem, by: 1 | -1): void
  submit(item: BlindedItem, s: Submission): void
  status(item: BlindedItem, status: 'pending' | 'skipped' | 'flagged'): void
  undo(): void
  exit(): void
}

/** Focus that reaches an item not drawn (by Tab, past the last field of the one shown) leaves it at once. */
function refuseFocus(e: FocusEvent<HTMLDivElement>) {
  if (e.currentTarget.classList.contains('held') && e.target instanceof HTMLElement) e.target.blur()
}

/** A slot's root as drawn: on screen, or held (or left) underneath. SlotView renders the same from `shown`. */
const slotClass = (shown: boolean) => (shown ? 'item-slot' : 'item-slot held')

/** A slot's root holds the item's workspace. */
function workspaceOf(root: Element | null | undefined): HTMLElement | null {
  const workspace = root?.firstElementChild
  return workspace instanceof HTMLElement ? workspace : null
}

/**
 * Draws a slot as shown or not, on the page itself, ahead of React (see Slot): which layer is opaque and on top, its
 * visibility to assistive technology, and its workspace's test id. Nothing that repaints an item changes here: the
 * focus (and its ring) and the tab order follow when React does (see queue-machine's settle), and a key pressed
 * before then goes where the focus is then (use-swap-input).
 */
export function drawSlot(root: HTMLElement, shown: boolean): void {
  root.className = slotClass(shown)
  if (shown) root.removeAttribute('aria-hidden')
  else root.setAttribute('aria-hidden', 'true')
  const workspace = workspaceOf(root)
  if (workspace) workspace.dataset.testid = shown ? 'item' : 'item-held'
}

/** Once the item shown is live: the focus is in it (its first field), never left in an item no longer drawn. */
export function focusShown(root: HTMLElement): void {
  const workspace = workspaceOf(root)
  if (!workspace || workspace.contains(document.activeElement)) return
  if (!focusFirstStop(workspace) && document.activeElement instanceof HTMLElement && document.activeElement.closest('.item-slot.held')) document.activeElement.blur()
}

/**
 * One item of the stack. Held or left, it is its own layer, transparent and underneath the one shown (whose opaque
 * background also takes every click), and hidden from assistive technology; held, and left once React has followed
 * the swap, it is also out of the tab order and refuses focus. It is not made `inert`: lifting that restyles and
 * repaints everything inside, which showing a held item must not cost.
 */
export const SlotView = memo(function SlotView({ slot, title, failure, actions }: { slot: Slot; title: string; failure: SubmitFailure | undefined; actions: SlotActions }) {
  const { item, shown, live } = slot
  const root = useRef<HTMLDivElement>(null)
  useLayoutEffect(() => {
    const workspace = workspaceOf(root.current)
    if (!workspace) return
    if (shown) restoreTabOrder(workspace)
    else holdOutOfTabOrder(workspace)
  }, [shown])
  const handlers = useMemo(
    () => ({
      navigate: (by: 1 | -1) => actions.navigate(item, by),
      submit: (submission: Submission) => actions.submit(item, submission),
      status: (status: 'pending' | 'skipped' | 'flagged') => actions.status(item, status)
    }),
    [actions, item]
  )
  return (
    <div ref={root} className={slotClass(shown)} data-slot={slot.key} aria-hidden={shown ? undefined : true} onFocus={refuseFocus}>
      <ItemWorkspace
        item={item}
        live={live}
        queueTitle={title}
        onNavigate={handlers.navigate}
        onSubmit={handlers.submit}
        failure={failure}
        onStatus={handlers.status}
        onUndo={actions.undo}
        onExit={actions.exit}
      />
    </div>
  )
})
