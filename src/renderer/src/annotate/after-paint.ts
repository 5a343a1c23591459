// Work that changes nothing on screen waits until the frame that shows a change has been painted and the page is
// idle, so it never delays that frame nor a key pressed just after it: a request to main, a copy in the browser's
// storage, parsing an item that is not shown yet.

/** Longest wait for an idle moment once the frame is painted. */
const IDLE_WITHIN_MS = 50
/** Longest wait where frames are not drawn (a hidden tab): the work still runs. */
const FALLBACK_MS = 200

/** Runs `fn` when the page is idle (within a second at the latest). */
export function whenIdle(fn: () => void, withinMs = 1000): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => fn(), { timeout: withinMs })
  else setTimeout(fn, 0)
}

/** Runs `fn` once the next frame has been painted and the page is idle. */
export function afterPaint(fn: () => void): void {
  let done = false
  const run = () => {
    if (done) return
    done = true
    clearTimeout(fallback)
    fn()
  }
  const fallback = setTimeout(run, FALLBACK_MS)
  // An idle period starts only after the frame's paint, never between the frame's callbacks and its paint.
  requestAnimationFrame(() => whenIdle(run, IDLE_WITHIN_MS))
}

/** The same as a promise. */
export function nextPaint(): Promise<void> {
  return new Promise((resolve) => afterPaint(resolve))
}
