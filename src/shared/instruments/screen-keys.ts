import type { Widget } from './types'

// The single keys of the annotation screen in one place, so that no key has two meanings on one screen: commands act
// wherever the cursor rests outside a text box, so no answer may use one of them. The next and previous item are on
// Alt+→/← only: a letter for them is an answer in some form (n was "next" and No), and an answer must never be
// shadowed.

/** Keys that move between fields, act on the item, scroll the text or open a panel, outside text boxes. */
export const ITEM_COMMAND_KEYS = ['j', 'k', 'J', 'K', 's', 'f', 'h', 'q', 'e', '/', '+', '[', ']', '?', ' '] as const
export type ItemCommandKey = (typeof ITEM_COMMAND_KEYS)[number]

type Leaf = Exclude<Widget, { kind: 'units' | 'list' }>
type BooleanWidget = Extract<Widget, { kind: 'boolean' }>
type ScaleWidget = Extract<Widget, { kind: 'scale' }>

/** A yes/no question's keys: y and n unless it names its own. */
export function booleanKeys(w: BooleanWidget): { yes: string; no: string } {
  return { yes: w.trueKey ?? 'y', no: w.falseKey ?? 'n' }
}

/** The key that picks `value` on a scale: 0 stands for 10 on a 1..10 scale. */
export function scaleKey(value: number, max: number): string {
  return value === 10 && max === 10 ? '0' : String(value)
}

/** The value a key gives a scale: its digit, 0 standing for 10 on a 1..10 scale; undefined where none. */
export function scaleValueOfKey(w: ScaleWidget, key: string): number | undefined {
  if (!/^[0-9]$/.test(key)) return undefined
  const digit = Number(key)
  const value = digit === 0 && w.max === 10 && w.min > 0 ? 10 : digit
  return value >= w.min && value <= w.max ? value : undefined
}

/** Every key that answers the widget in one press. */
export function answerKeysOf(w: Leaf): string[] {
  switch (w.kind) {
    case 'choice':
      // A declared option past the free keys has none (''): it is clicked.
      return w.options.map((o) => o.key).filter((k) => k !== '')
    case 'scale':
      return [...'0123456789'].filter((k) => scaleValueOfKey(w, k) !== undefined)
    case 'boolean': {
      const { yes, no } = booleanKeys(w)
      return [yes, no]
    }
    default:
      return []
  }
}

/** Keys a field takes while the cursor is on it, beyond its answers (a worked check runs on r). */
export function fieldActionKeysOf(w: Leaf): string[] {
  return w.kind === 'code' ? ['r'] : []
}
