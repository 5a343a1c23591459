import type { Stop } from './stops'

/** The shortcuts, always on screen; the part that applies to the current field comes first. */
export function Legend({ stop, hasPair, hasList, expanded }: { stop: Stop | undefined; hasPair: boolean; hasList: boolean; expanded: boolean }) {
  const here = fieldKeys(stop)
  return (
    <footer className={expanded ? 'legend expanded' : 'legend'} aria-label="Keyboard shortcuts" data-testid="legend">
      {here && <span className="legend-here">{here}</span>}
      <span>
        <kbd>Tab</kbd>/<kbd>⇧Tab</kbd> or <kbd>j</kbd>/<kbd>k</kbd> field
      </span>
      <span>
        <kbd>J</kbd>/<kbd>K</kbd> hypothesis or entry
      </span>
      <span>
        <kbd>Esc</kbd> leave text box
      </span>
      <span>
        <kbd>Ctrl</kbd>+<kbd>Enter</kbd> submit
      </span>
      <span>
        <kbd>Alt</kbd>+<kbd>→</kbd>/<kbd>←</kbd> or <kbd>n</kbd>/<kbd>p</kbd> next/previous item
      </span>
      <span>
        <kbd>Ctrl</kbd>+<kbd>Z</kbd> undo last submission
      </span>
      <span>
        <kbd>s</kbd> skip · <kbd>f</kbd> flag
      </span>
      {hasPair && (
        <span>
          <kbd>[</kbd>/<kbd>]</kbd> section · <kbd>↑</kbd>/<kbd>↓</kbd> scroll
        </span>
      )}
      {hasList && (
        <span>
          <kbd>+</kbd> add · <kbd>Del</kbd> remove entry
        </span>
      )}
      <span>
        <kbd>h</kbd> history · <kbd>?</kbd> all keys · <kbd>q</kbd> queues
      </span>
    </footer>
  )
}

function fieldKeys(stop: Stop | undefined): string | null {
  if (!stop) return null
  if (stop.kind === 'add') return 'Enter or + adds an entry'
  if (stop.kind === 'rubric-item') return 'type the points of this rubric item'
  const w = stop.widget
  switch (w.kind) {
    case 'choice':
      return w.options.map((o) => `${o.key} ${o.label}`).join(' · ')
    case 'scale':
      return `${w.min}–${w.max === 10 ? '9, 0 = 10' : w.max}`
    case 'boolean':
      return `${w.trueKey ?? 'y'} yes · ${w.falseKey ?? 'n'} no`
    case 'quote':
      return 'e add selection · / pick from text · Enter type · Del clear'
    case 'code':
      return 'Ctrl+Shift+Enter (or r) runs the check'
    default:
      return 'type; Esc to leave the box'
  }
}
