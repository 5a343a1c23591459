/**
 * Active time on one item: time counts only while the person is giving input. After `idleMs` without a key press
 * or pointer movement the clock stops; the next input restarts it. A gap between two inputs counts up to `idleMs`,
 * so reading for a while between keystrokes is counted, a coffee break is not.
 */
export class ActiveClock {
  private accumulated: number
  private lastInput: number
  private paused = false

  constructor(
    startMs = 0,
    private readonly now: () => number = () => Date.now(),
    readonly idleMs = 60_000
  ) {
    this.accumulated = startMs
    this.lastInput = now()
  }

  /** A key press, click, scroll or pointer movement. */
  input(): void {
    const t = this.now()
    if (this.paused) {
      this.paused = false
    } else {
      this.accumulated += Math.min(Math.max(0, t - this.lastInput), this.idleMs)
    }
    this.lastInput = t
  }

  /** The item is now on screen (it was held ready behind another): time counts from here, not from when it was built. */
  restart(): void {
    this.lastInput = this.now()
    this.paused = false
  }

  /** The window was hidden: what elapsed so far counts, nothing more until the next input. */
  pause(): void {
    if (this.paused) return
    this.accumulated = this.read()
    this.paused = true
  }

  /** Whole milliseconds of active time so far. */
  read(): number {
    if (this.paused) return Math.round(this.accumulated)
    return Math.round(this.accumulated + Math.min(Math.max(0, this.now() - this.lastInput), this.idleMs))
  }

  isIdle(): boolean {
    return this.paused || this.now() - this.lastInput > this.idleMs
  }
}

export function formatDuration(ms: number): string {
  const s = Math.floor(ms / 1000)
  const m = Math.floor(s / 60)
  return m > 0 ? `${m}m ${String(s % 60).padStart(2, '0')}s` : `${s}s`
}
