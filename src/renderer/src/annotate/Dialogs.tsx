import { useEffect, useMemo, useRef, useState } from 'react'
import { Modal } from '../components/Modal'
import { quoteCandidates, type QuoteCandidate, type QuoteSource } from './quotes'

// Small modal steps that take the keyboard while open: Enter confirms, Escape cancels.

export function ReasonDialog(props: { action: 'skip' | 'flag'; onConfirm(reason: string): void; onCancel(): void }) {
  const [reason, setReason] = useState('')
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => input.current?.focus(), [])
  return (
    <Modal label={props.action === 'skip' ? 'Skip this item' : 'Flag this item'} testId="reason-dialog" onClose={props.onCancel}>
      <h2>{props.action === 'skip' ? 'Skip this item' : 'Flag this item for the curator'}</h2>
      <label>
        Why?
        <input
          ref={input}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          onKeyDown={(e) => {
            e.stopPropagation()
            if (e.key === 'Tab') e.preventDefault()
            if (e.key === 'Enter' && reason.trim()) props.onConfirm(reason.trim())
            if (e.key === 'Escape') props.onCancel()
          }}
        />
      </label>
      <p className="muted small">
        <kbd>Enter</kbd> {props.action} · <kbd>Esc</kbd> cancel
      </p>
    </Modal>
  )
}

/**
 * Picks an exact quote without a mouse: type words to narrow the list; the typed words themselves are offered first
 * when they occur verbatim, then the sentences that contain them. ↑/↓ choose, Enter takes it.
 */
export function QuotePicker(props: { sources: ReadonlyArray<QuoteSource>; onPick(c: QuoteCandidate): void; onCancel(): void }) {
  const [filter, setFilter] = useState('')
  const [at, setAt] = useState(0)
  const input = useRef<HTMLInputElement>(null)
  const candidates = useMemo(() => quoteCandidates(props.sources, filter), [props.sources, filter])
  useEffect(() => input.current?.focus(), [])
  useEffect(() => setAt(0), [filter])
  useEffect(() => {
    document.querySelector('.picker-list .current')?.scrollIntoView({ block: 'nearest' })
  }, [at])
  const several = props.sources.length > 1
  return (
    <Modal label="Pick a quote" className="picker" testId="quote-picker" onClose={props.onCancel}>
      <h2>Pick an exact quote from {props.sources.map((s) => s.label).join(' or ')}</h2>
      <input
        ref={input}
        aria-label="Words of the quote"
        role="combobox"
        aria-expanded="true"
        aria-controls="quote-picker-list"
        aria-activedescendant={candidates[at] ? `quote-option-${at}` : undefined}
        placeholder="Type words of the passage…"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        onKeyDown={(e) => {
          e.stopPropagation()
          // The picker keeps the keyboard until a quote is taken or it is closed.
          if (e.key === 'Tab') {
            e.preventDefault()
          } else if (e.key === 'ArrowDown') {
            e.preventDefault()
            setAt((i) => Math.min(candidates.length - 1, i + 1))
          } else if (e.key === 'ArrowUp') {
            e.preventDefault()
            setAt((i) => Math.max(0, i - 1))
          } else if (e.key === 'Enter') {
            e.preventDefault()
            const c = candidates[at]
            if (c) props.onPick(c)
          } else if (e.key === 'Escape') {
            props.onCancel()
          }
        }}
      />
      <ol className="picker-list" role="listbox" aria-label="Quotes" id="quote-picker-list" tabIndex={0}>
        {candidates.map((c, i) => (
          <li
            key={`${c.source.path}:${c.exact}:${c.text}:${i}`}
            role="option"
            id={`quote-option-${i}`}
            aria-selected={i === at}
            className={i === at ? 'current' : undefined}
            onMouseDown={(e) => {
              e.preventDefault()
              props.onPick(c)
            }}
          >
            {several && <span className="picker-source">{c.source.label}</span>}
            {c.exact && <span className="picker-exact">exact words</span>}
            {c.text}
          </li>
        ))}
        {candidates.length === 0 && <li className="muted">These words are not in the text.</li>}
      </ol>
      <p className="muted small">
        <kbd>↑</kbd>/<kbd>↓</kbd> choose · <kbd>Enter</kbd> take · <kbd>Esc</kbd> cancel
      </p>
    </Modal>
  )
}
