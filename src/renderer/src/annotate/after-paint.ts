// Work that changes nothing on screen waits until the frame that shows a change has been painted, so it never delays
// that frame: a request to main, a copy in the browser's storage, parsing an item that is not shown yet.

/** Longest wait for an idle moment once the frame is painted. */
const IDLE_WITHIN_MS = 50
/** Longest wait where frames are not drawn (a hidden tab): the work still runs. */
const FALLBACK_MS = 200

/** Runs `fn` when the page is idle (within a second at the latest). */
export function whenIdle(fn: () => void, withinMs = 1000): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => fn(), { timeout: withinMs })
  else setTimeout(fn, 0)
}

/**
 * Runs `fn` once the next frame has been painted: at once (a task queued from the frame's callback runs after its
 * paint), or with `idle` when the page next has nothing to do, so it does not hold up a key pressed just after.
 */
export function afterPaint(fn: () => void, { idle = true }: { idle?: boolean } = {}): void {
  let done = false
  const run = () => {
    if (done) return
    done = true
    clearTimeout(fallback)
    fn()
  }
  const fallback = setTimeout(run, FALLBACK_MS)
  requestAnimationFrame(() => (idle ? whenIdle(run, IDLE_WITHIN_MS) : setTimeout(run, 0)))
}

/** Resolves once the next frame has been painted (without waiting for idle). */
export function nextPaint(): Promise<void> {
  return new Promise((resolve) => afterPaint(resolve, { idle: false }))
}
