import { booleanKeys, scaleValueOfKey } from '../../../shared/instruments/screen-keys'
import type { Stop } from './stops'

// Keys that answer a widget in one press: an option's key, a digit on a scale (0 stands for 10 on a 1..10 scale),
// y/n on a yes/no question. The keys themselves are defined in shared/instruments/screen-keys.

/** The value a key press gives the widget of `stop`, or undefined where the key means nothing there. */
export function answerForKey(stop: Stop, key: string): { value: unknown } | undefined {
  if (stop.kind !== 'field') return undefined
  const w = stop.widget
  if (w.kind === 'choice') {
    const option = w.options.find((o) => o.key === key)
    return option ? { value: option.value } : undefined
  }
  if (w.kind === 'scale') {
    const value = scaleValueOfKey(w, key)
    return value === undefined ? undefined : { value }
  }
  if (w.kind === 'boolean') {
    const { yes, no } = booleanKeys(w)
    if (key === yes) return { value: true }
    if (key === no) return { value: false }
  }
  return undefined
}
