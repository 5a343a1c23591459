import type { ReactNode } from 'react'
import type { Widget } from '../../../shared/instruments/types'
import { Markdown } from '../components/Markdown'
import { getAt, joinPath } from './paths'
import { isCodeValue } from './validate'

/**
 * An answer read-only, as its form: each of the instrument's fields by its label, with what was answered in the
 * form's own words (a choice's label, a scale point with its anchor, Yes or No), units and list entries as the form
 * lays them out. `data` is the answer in the display order the annotator answered in; `view` the item as shown.
 */
export function AnswerView({ widgets, data, view }: { widgets: ReadonlyArray<Widget>; data: unknown; view: Record<string, unknown> }) {
  return (
    <div className="answer-view" data-testid="answer-view">
      <Fields widgets={widgets} data={data} view={view} prefix="" />
    </div>
  )
}

function Fields({ widgets, data, view, prefix }: { widgets: ReadonlyArray<Widget>; data: unknown; view: Record<string, unknown>; prefix: string }) {
  return (
    <dl className="answer-fields">
      {widgets.map((w) => (
        <Field key={`${prefix}/${w.kind}/${w.field}`} widget={w} data={data} view={view} prefix={prefix} />
      ))}
    </dl>
  )
}

const none = <span className="muted">—</span>

function Field({ widget, data, view, prefix }: { widget: Widget; data: unknown; view: Record<string, unknown>; prefix: string }) {
  const path = joinPath(prefix, widget.field)
  const value = getAt(data, path)
  const row = (shown: ReactNode) => (
    <div className="answer-field" data-field={path}>
      <dt>{widget.label}</dt>
      <dd>{shown}</dd>
    </div>
  )
  switch (widget.kind) {
    case 'choice': {
      const chosen = widget.options.find((o) => o.value === value)
      return row(chosen ? chosen.label : value === null || value === undefined ? none : String(value))
    }
    case 'scale': {
      if (typeof value !== 'number') return row(none)
      const anchor = widget.anchors?.[value]
      return row(
        <>
          {value} <span className="muted">of {widget.min}–{widget.max}</span>
          {anchor ? ` · ${anchor}` : ''}
        </>
      )
    }
    case 'boolean':
      return row(value === true ? 'Yes' : value === false ? 'No' : none)
    case 'number':
      return row(typeof value === 'number' ? String(value) : none)
    case 'text':
      return row(typeof value === 'string' && value.trim() ? <Markdown text={value} /> : none)
    case 'quote': {
      const quotes = (Array.isArray(value) ? value : [value]).filter((q): q is string => typeof q === 'string' && q.trim() !== '')
      return row(quotes.length ? quotes.map((q, i) => <blockquote key={i} className="answer-quote"><Markdown text={q} /></blockquote>) : none)
    }
    case 'code':
      if (!isCodeValue(value)) return row(none)
      return row(
        <>
          <pre className="code-block">
            <code>{value.code}</code>
          </pre>
          {value.output && <pre className="check-output">{value.output}</pre>}
        </>
      )
    case 'rubric': {
      const points = Array.isArray(value) ? value : []
      const items = getAt(view, widget.source)
      const texts = Array.isArray(items) ? items.map((it) => String((it as { item?: unknown }).item ?? '')) : []
      if (points.length === 0) return row(none)
      return row(
        <ol className="answer-rubric">
          {points.map((p, i) => (
            <li key={i}>
              <b>{typeof p === 'number' ? p : '—'}</b> <span className="muted">· {texts[i] ?? `Item ${i + 1}`}</span>
            </li>
          ))}
        </ol>
      )
    }
    case 'units':
    case 'list': {
      const entries = Array.isArray(value) ? value : []
      const title = (entry: unknown, i: number) =>
        widget.kind === 'units' ? String((entry as Record<string, unknown>)?.[widget.unitIdField] ?? i + 1) : `${widget.itemLabel} ${i + 1}`
      return row(
        entries.length === 0 ? (
          <span className="muted">none</span>
        ) : (
          entries.map((entry, i) => (
            <section key={i} className="answer-entry" aria-label={title(entry, i)}>
              <h4>{title(entry, i)}</h4>
              <Fields widgets={widget.widgets} data={data} view={view} prefix={joinPath(path, i)} />
            </section>
          ))
        )
      )
    }
  }
}
