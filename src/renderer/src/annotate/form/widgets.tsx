import { useEffect, useState, type ReactNode } from 'react'
import { requirementOf } from '../../../../shared/instruments/requirements'
import type { Widget } from '../../../../shared/instruments/types'
import { Markdown } from '../../components/Markdown'
import { booleanKeys, scaleKey } from '../../../../shared/instruments/screen-keys'
import { Key } from '../Legend'
import { getAt, setAt } from '../paths'
import { quoteSources } from '../quotes'
import { spanPathOf } from '../use-quote-actions'
import type { RubricWidget } from '../stops'
import { isCodeValue } from '../validate'
import { useForm } from './context'

// One component per widget kind. Each renders a "stop": the element the cursor rests on, labelled, with its
// messages under it. Stops answered by keys are themselves; text stops focus their text box.

type Leaf<K extends Widget['kind']> = Extract<Widget, { kind: K }>

export function StopFrame(props: { path: string; label: ReactNode; children: ReactNode; className?: string; hint?: ReactNode }) {
  const form = useForm()
  const active = form.cursor === props.path
  const messages = form.messagesAt(props.path)
  return (
    <div
      className={['stop', active ? 'active' : '', messages.length ? 'has-issue' : '', props.className ?? ''].filter(Boolean).join(' ')}
      data-stop={props.path}
      tabIndex={-1}
      onFocus={() => form.noteFocus(props.path)}
    >
      <div className="stop-label">
        {props.label}
        {props.hint && <span className="stop-hint">{props.hint}</span>}
      </div>
      {props.children}
      {messages.map((m) => (
        <p key={m} className="field-issue" role="alert" data-testid="field-issue" data-path={props.path}>
          {m}
        </p>
      ))}
    </div>
  )
}

/** A field's label with what it requires: "optional", or the condition that makes it required. */
function RequirementLabel({ widget }: { widget: Widget }) {
  const rule = requirementOf(widget)
  return (
    <>
      {widget.label}
      {rule.kind !== 'required' && (
        <span className="requirement muted" data-requirement={rule.kind}>
          {rule.kind === 'optional' ? 'optional' : rule.says}
        </span>
      )}
    </>
  )
}

export function ChoiceWidget({ widget, path }: { widget: Leaf<'choice'>; path: string }) {
  const form = useForm()
  const value = getAt(form.data, path)
  // An optional choice (a mark such as "No flaws found") is cleared by choosing it again.
  const choose = (v: string | boolean) => form.setValue(path, widget.optional && value === v ? undefined : v)
  return (
    <StopFrame path={path} label={widget.optional ? <RequirementLabel widget={widget} /> : widget.label}>
      <div className="options" role="radiogroup" aria-label={widget.label}>
        {widget.options.map((o) => (
          <button
            key={String(o.value)}
            type="button"
            tabIndex={-1}
            role="radio"
            aria-checked={value === o.value}
            className={value === o.value ? 'option chosen' : 'option'}
            onClick={() => choose(o.value)}
          >
            <Key k={o.key} /> {o.label}
          </button>
        ))}
      </div>
    </StopFrame>
  )
}

export function ScaleWidget({ widget, path }: { widget: Leaf<'scale'>; path: string }) {
  const form = useForm()
  const value = getAt(form.data, path)
  const values: number[] = []
  for (let v = widget.min; v <= widget.max; v++) values.push(v)
  return (
    <StopFrame path={path} label={widget.label} hint={`${widget.min}–${widget.max}`}>
      <div className="options scale" role="radiogroup" aria-label={widget.label} data-value={typeof value === 'number' ? value : ''}>
        {values.map((v) => (
          <button
            key={v}
            type="button"
            tabIndex={-1}
            role="radio"
            aria-checked={value === v}
            title={widget.anchors?.[v]}
            className={value === v ? 'option chosen' : 'option'}
            onClick={() => form.setValue(path, v)}
          >
            {v !== 10 || widget.max !== 10 ? v : <>10 <Key k="0" /></>}
          </button>
        ))}
      </div>
      {widget.anchors && (
        <div className="anchors">
          {Object.entries(widget.anchors).map(([k, text]) => (
            <span key={k}>
              <b>{k}</b> {text}
            </span>
          ))}
        </div>
      )}
      {widget.max === 10 && <span className="muted small">Key {scaleKey(10, 10)} gives 10.</span>}
    </StopFrame>
  )
}

export function BooleanWidget({ widget, path }: { widget: Leaf<'boolean'>; path: string }) {
  const form = useForm()
  const value = getAt(form.data, path)
  const { yes, no } = booleanKeys(widget)
  return (
    <StopFrame path={path} label={widget.label}>
      <div className="options" role="radiogroup" aria-label={widget.label} data-value={typeof value === 'boolean' ? String(value) : ''}>
        <button type="button" tabIndex={-1} role="radio" aria-checked={value === true} className={value === true ? 'option chosen' : 'option'} onClick={() => form.setValue(path, true)}>
          <Key k={yes} /> Yes
        </button>
        <button type="button" tabIndex={-1} role="radio" aria-checked={value === false} className={value === false ? 'option chosen' : 'option'} onClick={() => form.setValue(path, false)}>
          <Key k={no} /> No
        </button>
      </div>
    </StopFrame>
  )
}

function parseNumber(text: string): unknown {
  const t = text.trim().replace(',', '.')
  if (t === '') return null
  const n = Number(t)
  // An unparsable entry is kept as typed, so the schema names the problem instead of the value vanishing.
  return Number.isFinite(n) ? n : text
}

/** What a number box accepts while typing: digits with one decimal point or comma, a sign, or nothing yet. */
const NUMBER_TYPING = /^\s*[-+]?\d*(?:[.,]\d*)?\s*$/

/**
 * A text box for a number that keeps what is typed ("0.") while the stored value is the number. Anything but a
 * number being typed is refused as it is typed, with a note saying so until the box is left, never kept as a silent 0.
 */
export function NumberInput(props: { value: unknown; onChange(v: unknown): void; label: string; className?: string; primary?: boolean }) {
  const shown = typeof props.value === 'number' ? String(props.value) : typeof props.value === 'string' ? props.value : ''
  const [text, setText] = useState(shown)
  const [refused, setRefused] = useState<string | null>(null)
  useEffect(() => {
    // Follow changes made elsewhere (undo, a restored draft, a rubric total) unless they equal what is typed.
    if (parseNumber(text) !== props.value && !(props.value === null && text.trim() === '')) setText(shown)
  }, [props.value])
  return (
    <>
      <input
        className={props.className ?? 'number'}
        inputMode="decimal"
        aria-label={props.label}
        aria-invalid={refused ? true : undefined}
        tabIndex={-1}
        data-primary={props.primary === false ? undefined : ''}
        value={text}
        onBlur={() => setRefused(null)}
        onChange={(e) => {
          const typed = e.target.value
          if (!NUMBER_TYPING.test(typed)) {
            const odd = [...typed].find((c) => !/[\d.,\s+-]/.test(c)) ?? typed
            setRefused(`Numbers only: "${odd}" is not taken.`)
            return
          }
          setText(typed)
          props.onChange(parseNumber(typed))
        }}
      />
      <span className="number-refused" role="status" data-testid="number-refused">
        {refused}
      </span>
    </>
  )
}

export function NumberWidget({ widget, path }: { widget: Leaf<'number'>; path: string }) {
  const form = useForm()
  const range = widget.min !== undefined && widget.max !== undefined ? `${widget.min}–${widget.max}` : undefined
  return (
    <StopFrame path={path} label={<RequirementLabel widget={widget} />} hint={range}>
      <NumberInput label={widget.label} value={getAt(form.data, path)} onChange={(v) => form.setValue(path, v)} />
    </StopFrame>
  )
}

export function TextWidget({ widget, path }: { widget: Leaf<'text'>; path: string }) {
  const form = useForm()
  const value = getAt(form.data, path)
  const text = typeof value === 'string' ? value : ''
  const common = {
    'aria-label': widget.label,
    tabIndex: -1,
    'data-primary': '',
    value: text,
    onChange: (e: { target: { value: string } }) => form.setValue(path, e.target.value)
  }
  return (
    <StopFrame path={path} label={<RequirementLabel widget={widget} />}>
      {widget.multiline ? <textarea rows={3} {...common} /> : <input {...common} />}
    </StopFrame>
  )
}

export function QuoteWidget({ widget, path, entry }: { widget: Leaf<'quote'>; path: string; entry: unknown }) {
  const form = useForm()
  const value = getAt(form.data, path)
  const sources = quoteSources(widget, form.view, entry)
  const from = sources.map((s) => s.label).join(' or ')
  const hint = (
    <>
      from {from || 'the shown text'}: select and <Key k="e" />, or pick <Key k="/" />; <Key k="Enter" /> to type
    </>
  )
  if (widget.many) {
    const quotes = Array.isArray(value) ? (value as unknown[]) : []
    return (
      <StopFrame path={path} label={<RequirementLabel widget={widget} />} hint={hint} className="quote">
        <ul className="quotes">
          {quotes.map((q, i) => (
            <li key={i} data-stop-child={`${path}.${i}`}>
              <input
                aria-label={`${widget.label} ${i + 1}`}
                tabIndex={-1}
                className="quote-text"
                value={typeof q === 'string' ? q : ''}
                onChange={(e) => form.setValue(`${path}.${i}`, e.target.value)}
              />
              <button type="button" tabIndex={-1} aria-label="Remove quote" onClick={() => form.setValue(path, quotes.filter((_, k) => k !== i))}>
                ×
              </button>
            </li>
          ))}
        </ul>
        <QuoteButtons path={path} />
      </StopFrame>
    )
  }
  return (
    <StopFrame path={path} label={<RequirementLabel widget={widget} />} hint={hint} className="quote">
      <textarea
        rows={2}
        className="quote-text"
        aria-label={widget.label}
        tabIndex={-1}
        data-quote-input=""
        value={typeof value === 'string' ? value : ''}
        placeholder="No quote yet"
        onChange={(e) => {
          form.setValue(path, e.target.value)
          // Typed words have no known position in the source.
          const spanPath = spanPathOf(path, widget)
          if (spanPath) form.setValue(spanPath, undefined)
        }}
      />
      <QuoteButtons path={path} />
    </StopFrame>
  )
}

function QuoteButtons({ path }: { path: string }) {
  const form = useForm()
  return (
    <div className="row-buttons">
      {/* mousedown would clear the page selection before the click reads it */}
      <button type="button" tabIndex={-1} onMouseDown={(e) => e.preventDefault()} onClick={() => form.addSelection(path)}>
        Add selection as evidence <Key k="e" />
      </button>
      <button type="button" tabIndex={-1} onClick={() => form.openPicker(path)}>
        Pick from text <Key k="/" />
      </button>
    </div>
  )
}

export function CodeWidget({ widget, path }: { widget: Leaf<'code'>; path: string }) {
  const form = useForm()
  const value = getAt(form.data, path)
  const code = isCodeValue(value) ? value : { code: '', output: '', ran_at: '' }
  const running = form.running.has(path)
  return (
    <StopFrame path={path} label={<RequirementLabel widget={widget} />} className="code">
      <textarea
        rows={4}
        className="code-text"
        spellCheck={false}
        aria-label={widget.label}
        tabIndex={-1}
        data-primary=""
        value={code.code}
        placeholder="console.log(...)  // JavaScript, printed lines are the output"
        onChange={(e) => form.setValue(path, e.target.value ? { code: e.target.value, output: '', ran_at: '' } : undefined)}
      />
      <div className="row-buttons">
        <button type="button" tabIndex={-1} disabled={!code.code.trim() || running} onClick={() => form.runCheck(path)}>
          {running ? 'Running…' : 'Run'} <Key k="Ctrl+Shift+Enter" />
        </button>
        {code.ran_at && <span className="muted small">ran {new Date(code.ran_at).toLocaleTimeString()}</span>}
      </div>
      {code.ran_at && (
        <pre className="check-output" data-testid="check-output">
          {code.output || '(no output)'}
        </pre>
      )}
    </StopFrame>
  )
}

function rubricItems(view: Record<string, unknown>, source: string): Array<{ points: number; item: string }> {
  const items = getAt(view, source)
  if (!Array.isArray(items)) return []
  return items.map((it) => {
    const r = it as { points?: unknown; item?: unknown }
    return { points: Number(r.points), item: typeof r.item === 'string' ? r.item : '' }
  })
}

/** Points per rubric item with the running total; the `total` beside it follows the sum until edited by hand. */
export function RubricWidget({ widget, path, prefix }: { widget: RubricWidget; path: string; prefix: string }) {
  const form = useForm()
  const items = rubricItems(form.view, widget.source)
  const raw = getAt(form.data, path)
  const points = Array.isArray(raw) ? raw : []
  const sum = points.reduce<number>((s, p) => s + (typeof p === 'number' ? p : 0), 0)
  const over = sum > widget.maxTotal + 1e-9
  const passes = widget.passAt !== undefined && sum >= widget.passAt
  const totalPath = prefix ? `${prefix}.total` : 'total'
  const setPoint = (i: number, v: unknown) => {
    form.update((data) => {
      const before = getAt(data, path)
      const list = Array.isArray(before) ? [...before] : items.map(() => 0)
      const oldSum = list.reduce<number>((s, p) => s + (typeof p === 'number' ? p : 0), 0)
      list[i] = v
      const newSum = list.reduce<number>((s, p) => s + (typeof p === 'number' ? p : 0), 0)
      let next = setAt(data, path, list)
      const total = getAt(data, totalPath)
      if (total === null || total === undefined || (typeof total === 'number' && Math.abs(total - oldSum) < 1e-9)) {
        next = setAt(next, totalPath, Math.round(newSum * 1e6) / 1e6)
      }
      return next
    })
  }
  return (
    <div className="rubric" data-testid="rubric">
      <div className="stop-label">
        {widget.label}
        <span className={over ? 'rubric-total over' : 'rubric-total'} data-testid="rubric-total">
          {round(sum)} / {widget.maxTotal}
          {widget.passAt !== undefined && (passes && !over ? ` · pass (≥ ${widget.passAt})` : ` · below ${widget.passAt}`)}
        </span>
      </div>
      {items.map((it, i) => (
        <StopFrame key={i} path={`${path}.${i}`} label={<span className="muted">Item {i + 1}</span>} className="rubric-item">
          <div className="rubric-row">
            <NumberInput label={`Points for rubric item ${i + 1}`} className="number points" value={points[i] ?? null} onChange={(v) => setPoint(i, v)} />
            <span className="muted">/ {it.points}</span>
            <div className="rubric-text">
              <Markdown text={it.item} />
            </div>
          </div>
        </StopFrame>
      ))}
      {form.messagesAt(path).map((m) => (
        <p key={m} className="field-issue" role="alert" data-testid="field-issue" data-path={path}>
          {m}
        </p>
      ))}
    </div>
  )
}

function round(x: number): number {
  return Math.round(x * 100) / 100
}
