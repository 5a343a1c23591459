import { useContext, useEffect, useState } from 'react'
import type { BlindedItem } from '../../../shared/contract/annotation-schemas'
import { type ActiveClock, formatDuration } from './clock'
import { QueueProgress } from './queue-progress'
import type { SaveState } from './use-autosave'

export interface ItemBarProps {
  item: BlindedItem
  queueTitle: string
  save: { state: SaveState; error: string | null; restored: boolean }
  clock: ActiveClock
  /** The item is the one on screen (not one held ready behind it): its active time ticks. */
  live: boolean
  showHistory: boolean
  onExit(): void
  onNavigate(step: 1 | -1): void
  onReason(action: 'skip' | 'flag'): void
  onToggleHistory(): void
  onSubmit(): void
}

/** The bar above an item: where it is in the queue, its status, saving, active time and the item's actions. */
export function ItemBar(props: ItemBarProps) {
  const { item } = props
  const progress = useContext(QueueProgress)
  return (
    <header className="annotate-bar">
      <button type="button" tabIndex={-1} className="link" onClick={props.onExit}>
        ← Queues <kbd>q</kbd>
      </button>
      <h1 className="annotate-title">{props.queueTitle}</h1>
      <span data-testid="item-position">
        Item {item.index + 1} of {item.total}
      </span>
      <span className="muted">
        ({progress.done}/{progress.total} done)
      </span>
      <span className={`badge status-${item.status}`} data-testid="item-status">
        {item.status}
      </span>
      <SaveIndicator {...props.save} />
      <ActiveTime clock={props.clock} live={props.live} />
      <span className="bar-actions">
        <button type="button" tabIndex={-1} onClick={() => props.onNavigate(-1)}>
          ‹ Prev
        </button>
        <button type="button" tabIndex={-1} onClick={() => props.onNavigate(1)}>
          Next ›
        </button>
        <button type="button" tabIndex={-1} onClick={() => props.onReason('skip')}>
          Skip <kbd>s</kbd>
        </button>
        <button type="button" tabIndex={-1} onClick={() => props.onReason('flag')}>
          Flag <kbd>f</kbd>
        </button>
        <button type="button" tabIndex={-1} onClick={props.onToggleHistory} aria-pressed={props.showHistory}>
          History <kbd>h</kbd>
        </button>
        <button type="button" tabIndex={-1} className="primary" onClick={props.onSubmit} data-testid="submit">
          Submit <kbd>Ctrl+↵</kbd>
        </button>
      </span>
    </header>
  )
}

const SAVE_TEXT: Record<SaveState, string> = {
  clean: '',
  dirty: 'Unsaved changes…',
  saving: 'Saving…',
  saved: 'Saved',
  error: 'Not saved, retrying (kept in this browser)'
}

function SaveIndicator({ state, error, restored }: { state: SaveState; error: string | null; restored: boolean }) {
  const text = state === 'clean' ? (restored ? 'Draft restored' : 'No changes') : SAVE_TEXT[state]
  return (
    <span className={`save-state save-${state}`} data-testid="save-state" data-state={state} title={error ?? undefined} aria-live="polite">
      {text}
    </span>
  )
}

function ActiveTime({ clock, live }: { clock: ActiveClock; live: boolean }) {
  const [, tick] = useState(0)
  useEffect(() => {
    if (!live) return
    const t = setInterval(() => tick((n) => n + 1), 1000)
    return () => clearInterval(t)
  }, [live])
  return (
    <span className={clock.isIdle() ? 'active-time idle' : 'active-time'} title="Active time on this item (stops after 60 s without input)">
      active {formatDuration(clock.read())}
      {clock.isIdle() ? ' (paused)' : ''}
    </span>
  )
}
