import { useEffect } from 'react'
import type { ActiveClock } from './clock'

/**
 * Active time: any key, click, wheel or pointer movement keeps the clock running; a hidden window stops it. Only the
 * item on screen (`live`) listens.
 */
export function useActiveInput(clock: ActiveClock, live: boolean): void {
  useEffect(() => {
    if (!live) return
    const onInput = () => clock.input()
    const onVisibility = () => (document.hidden ? clock.pause() : clock.input())
    const events = ['keydown', 'pointerdown', 'pointermove', 'wheel'] as const
    events.forEach((e) => window.addEventListener(e, onInput, { passive: true }))
    document.addEventListener('visibilitychange', onVisibility)
    return () => {
      events.forEach((e) => window.removeEventListener(e, onInput))
      document.removeEventListener('visibilitychange', onVisibility)
    }
  }, [clock, live])
}
