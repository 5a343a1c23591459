import { useLayoutEffect, useRef, type RefObject } from 'react'
import { isTypingTarget, stopElement } from './dom'
import type { ItemCommandKey } from '../../../shared/instruments/screen-keys'
import { answerForKey } from './keys'
import { getAt, parentPath } from './paths'
import { clearsOnRepeat, isTextEntry, moveGroup, moveStop, type ListWidget, type Stop } from './stops'
import { spanPathOf } from './use-quote-actions'

/** Everything the item's keys act on. */
export interface ItemKeyContext {
  /** A dialog is open: it has the keys. */
  blocked: boolean
  stops: ReadonlyArray<Stop>
  cursor: string | null
  data: unknown
  sourceRef: RefObject<HTMLElement | null>
  /** The item's element, where its stops are looked up (the page where none is given). */
  itemRef?: RefObject<HTMLElement | null>
  /** `enter` puts the caret in the stop's text box (Tab, Enter); else the stop itself takes the keys. */
  focusStop(path: string, enter?: boolean): void
  setValue(path: string, value: unknown): void
  addEntry(listPath: string, widget: ListWidget): void
  removeEntry(entryPath: string): void
  addSelection(path: string): void
  openPicker(path: string): void
  runCheck(path: string): void
  submit(): void
  navigate(step: 1 | -1): void
  undo(): void
  exit(): void
  askReason(action: 'skip' | 'flag'): void
  toggleHistory(): void
  toggleLegend(): void
}

/**
 * Every keyboard shortcut of an item. Keys act on the field under the cursor first, then on the item. The listener
 * is attached while the item is committed, before it is painted: a key pressed the moment it shows is not lost. An
 * item held ready behind the one on screen (not `live`) has no keys.
 */
export function useItemKeys(ctx: ItemKeyContext, live = true): void {
  const ref = useRef(ctx)
  ref.current = ctx
  useLayoutEffect(() => {
    if (!live) return
    const listener = (e: KeyboardEvent) => onItemKey(ref.current, e)
    window.addEventListener('keydown', listener)
    return () => window.removeEventListener('keydown', listener)
  }, [live])
}

function scrollSource(ctx: ItemKeyContext, dy: number) {
  ctx.sourceRef.current?.scrollBy({ top: dy })
}

/** Scrolls the text to the next or previous section row of a pair. */
function jumpSection(ctx: ItemKeyContext, step: 1 | -1) {
  const box = ctx.sourceRef.current
  if (!box) return
  const rows = [...box.querySelectorAll<HTMLElement>('[data-section-row]')]
  if (!rows.length) return
  // The section bar sticks to the top of the box: a section starts where the bar ends, not under it.
  const bar = box.querySelector<HTMLElement>('.section-bar')?.offsetHeight ?? 0
  const top = box.scrollTop + bar + 8
  let at = 0
  rows.forEach((r, i) => {
    if (r.offsetTop <= top) at = i
  })
  const target = rows[Math.max(0, Math.min(rows.length - 1, at + step))]
  if (target) box.scrollTo({ top: target.offsetTop - bar })
}

/** What a command does; false when it did nothing, so the key keeps its default. */
type Command = (ctx: ItemKeyContext, stop: Stop | undefined) => unknown

const go = (ctx: ItemKeyContext, path: string | null) => (path ? ctx.focusStop(path) : false)
const page = (ctx: ItemKeyContext) => (ctx.sourceRef.current?.clientHeight ?? 600) * 0.85

/**
 * The item's commands outside text boxes: exactly the shared command keys (no answer uses one) and the scrolling
 * keys. The next and previous item are Alt+→/←, handled above, so they work inside a text box too.
 */
const COMMANDS = {
  j: (ctx) => go(ctx, moveStop(ctx.stops, ctx.cursor, 1)),
  k: (ctx) => go(ctx, moveStop(ctx.stops, ctx.cursor, -1)),
  J: (ctx) => go(ctx, moveGroup(ctx.stops, ctx.cursor, 1)),
  K: (ctx) => go(ctx, moveGroup(ctx.stops, ctx.cursor, -1)),
  s: (ctx) => ctx.askReason('skip'),
  f: (ctx) => ctx.askReason('flag'),
  h: (ctx) => ctx.toggleHistory(),
  '?': (ctx) => ctx.toggleLegend(),
  q: (ctx) => ctx.exit(),
  e: (ctx) => ctx.addSelection(ctx.cursor ?? ''),
  '/': (ctx) => ctx.openPicker(ctx.cursor ?? ''),
  '+': (ctx, stop) => {
    const add = ctx.stops.find((s): s is Extract<Stop, { kind: 'add' }> => s.kind === 'add' && (stop?.group == null || stop.group.startsWith(`${s.listPath}.`)))
    return add ? ctx.addEntry(add.listPath, add.widget) : false
  },
  ']': (ctx) => jumpSection(ctx, 1),
  '[': (ctx) => jumpSection(ctx, -1),
  ' ': (ctx) => scrollSource(ctx, page(ctx)),
  ArrowDown: (ctx) => scrollSource(ctx, 120),
  ArrowUp: (ctx) => scrollSource(ctx, -120),
  ArrowRight: (ctx) => scrollFormula(ctx, 120),
  ArrowLeft: (ctx) => scrollFormula(ctx, -120),
  PageDown: (ctx) => scrollSource(ctx, page(ctx)),
  PageUp: (ctx) => scrollSource(ctx, -page(ctx))
} satisfies Record<ItemCommandKey | 'ArrowDown' | 'ArrowUp' | 'ArrowRight' | 'ArrowLeft' | 'PageDown' | 'PageUp', Command>

/** The command keys the handler takes, for tests: no answer may use one. */
export const HANDLED_COMMAND_KEYS: ReadonlyArray<string> = Object.keys(COMMANDS)

function onItemKey(ctx: ItemKeyContext, e: KeyboardEvent): void {
  if (ctx.blocked || e.defaultPrevented) return
  const { stops, cursor } = ctx
  const stopAt = (path: string | null) => stops.find((s) => s.path === path)
  const typing = isTypingTarget(e.target)
  const ctrl = e.ctrlKey || e.metaKey
  if (ctrl && e.key === 'Enter' && !e.shiftKey) {
    e.preventDefault()
    ctx.submit()
    return
  }
  if (ctrl && e.shiftKey && e.key === 'Enter') {
    const stop = stopAt(cursor)
    if (stop?.kind === 'field' && stop.widget.kind === 'code') {
      e.preventDefault()
      ctx.runCheck(stop.path)
    }
    return
  }
  if (e.key === 'Tab' && !ctrl && !e.altKey) {
    e.preventDefault()
    const next = moveStop(stops, cursor, e.shiftKey ? -1 : 1)
    if (next) ctx.focusStop(next, true)
    return
  }
  if (e.altKey && (e.key === 'ArrowRight' || e.key === 'ArrowLeft')) {
    e.preventDefault()
    ctx.navigate(e.key === 'ArrowRight' ? 1 : -1)
    return
  }
  if (typing) {
    if (e.key === 'Escape') {
      e.preventDefault()
      const holder = (e.target as HTMLElement).closest<HTMLElement>('[data-stop]')
      if (holder) holder.focus()
      else (e.target as HTMLElement).blur()
    }
    return
  }
  if (ctrl && !e.shiftKey && e.key.toLowerCase() === 'z') {
    e.preventDefault()
    ctx.undo()
    return
  }
  if (ctrl || e.altKey) return

  const stop = stopAt(cursor)
  if (stop && onStopKey(ctx, stop, e)) return

  const command = Object.hasOwn(COMMANDS, e.key) ? COMMANDS[e.key as keyof typeof COMMANDS] : undefined
  const handled = command ? command(ctx, stop) : answerMain(ctx, e.key)
  if (handled !== false) e.preventDefault()
}

/**
 * A key that answers no field under the cursor and is no command answers the form's main choice: the first
 * top-level field the key answers (a verdict, the first scale), wherever the cursor rests outside a text box. The
 * cursor moves on from that field as a key pressed on it would.
 */
function answerMain(ctx: ItemKeyContext, key: string): boolean {
  for (const stop of ctx.stops) {
    if (stop.group !== null || stop.kind !== 'field') continue
    const answer = answerForKey(stop, key)
    if (!answer) continue
    answerStop(ctx, stop, answer.value)
    return true
  }
  return false
}

/** Sets a stop's answer and moves on where the next field is also answered without typing. */
function answerStop(ctx: ItemKeyContext, stop: Stop, value: unknown) {
  const { stops } = ctx
  // An optional choice already holding this answer is cleared by its key, as a second click clears it.
  ctx.setValue(stop.path, clearsOnRepeat(stop) && getAt(ctx.data, stop.path) === value ? undefined : value)
  // A text box is entered with Tab or Enter, never by answering the field before it.
  const next = moveStop(stops, stop.path, 1)
  const nextStop = stops.find((s) => s.path === next)
  if (next && next !== stop.path && nextStop && !isTextEntry(nextStop)) ctx.focusStop(next)
  else ctx.focusStop(stop.path)
}

/** Scrolls the wide formula in view (the first one wider than its box) sideways. */
function scrollFormula(ctx: ItemKeyContext, dx: number) {
  const box = ctx.sourceRef.current
  if (!box) return false
  const focused = document.activeElement
  if (focused instanceof HTMLElement && box.contains(focused) && focused.matches('.katex-display[data-scrolls]')) {
    focused.scrollBy({ left: dx })
    return true
  }
  const view = box.getBoundingClientRect()
  const wide = [...box.querySelectorAll<HTMLElement>('.katex-display')].find((el) => {
    if (el.scrollWidth <= el.clientWidth + 1) return false
    const r = el.getBoundingClientRect()
    return r.bottom > view.top && r.top < view.bottom
  })
  if (!wide) return false
  wide.scrollBy({ left: dx })
  return true
}

/** Keys that answer or act on the stop under the cursor; true when the key was used. */
function onStopKey(ctx: ItemKeyContext, stop: Stop, e: KeyboardEvent): boolean {
  const { stops } = ctx
  const answer = answerForKey(stop, e.key)
  if (answer) {
    e.preventDefault()
    answerStop(ctx, stop, answer.value)
    return true
  }
  if (stop.kind === 'add' && (e.key === 'Enter' || e.key === '+')) {
    e.preventDefault()
    ctx.addEntry(stop.listPath, stop.widget)
    return true
  }
  if (stop.kind === 'field' && stop.widget.kind === 'quote') {
    if (e.key === 'Enter') {
      e.preventDefault()
      stopElement(stop.path, ctx.itemRef)?.querySelector<HTMLElement>('.quote-text')?.focus()
      return true
    }
    if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault()
      const value = getAt(ctx.data, stop.path)
      ctx.setValue(stop.path, stop.widget.many ? (Array.isArray(value) ? value.slice(0, -1) : []) : '')
      const spanPath = spanPathOf(stop.path, stop.widget)
      if (spanPath) ctx.setValue(spanPath, undefined)
      return true
    }
  }
  if (isTextEntry(stop) && e.key === 'Enter') {
    e.preventDefault()
    ctx.focusStop(stop.path, true)
    return true
  }
  if (stop.kind === 'field' && stop.widget.kind === 'code' && e.key === 'r') {
    e.preventDefault()
    ctx.runCheck(stop.path)
    return true
  }
  if (e.key === 'Delete' && stop.group && /\.\d+$/.test(stop.group)) {
    const list = parentPath(stop.group)
    if (stops.some((s) => s.kind === 'add' && s.listPath === list)) {
      e.preventDefault()
      ctx.removeEntry(stop.group)
      return true
    }
  }
  return false
}
