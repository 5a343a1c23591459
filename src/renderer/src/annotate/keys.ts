import type { Stop } from './stops'

// Keys that answer a widget in one press: an option's key, a digit on a scale (0 stands for 10 on a 1..10 scale),
// y/n on a yes/no question.

/** The key that picks `value` on a scale. */
export function scaleKey(value: number, max: number): string {
  return value === 10 && max === 10 ? '0' : String(value)
}

/** The value a key press gives the widget of `stop`, or undefined where the key means nothing there. */
export function answerForKey(stop: Stop, key: string): { value: unknown } | undefined {
  if (stop.kind !== 'field') return undefined
  const w = stop.widget
  if (w.kind === 'choice') {
    const option = w.options.find((o) => o.key === key)
    return option ? { value: option.value } : undefined
  }
  if (w.kind === 'scale') {
    if (!/^[0-9]$/.test(key)) return undefined
    const digit = Number(key)
    const value = digit === 0 && w.max === 10 && w.min > 0 ? 10 : digit
    return value >= w.min && value <= w.max ? { value } : undefined
  }
  if (w.kind === 'boolean') {
    if (key === (w.trueKey ?? 'y')) return { value: true }
    if (key === (w.falseKey ?? 'n')) return { value: false }
  }
  return undefined
}
