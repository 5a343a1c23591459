import { memo } from 'react'
import type { Widget } from '../../../../shared/instruments/types'
import { Markdown } from '../../components/Markdown'
import { getAt, joinPath } from '../paths'
import { addStopPath } from '../stops'
import { useForm } from './context'
import { BooleanWidget, ChoiceWidget, CodeWidget, NumberWidget, QuoteWidget, RubricWidget, ScaleWidget, TextWidget } from './widgets'

/**
 * Renders an instrument's `form.widgets` at `prefix` of the form state; units and lists recurse. Widgets follow the
 * form through its context, so a render of what holds the form (its item becoming the one shown) passes them by.
 */
export const FormRenderer = memo(function FormRenderer({ widgets, prefix = '', entry }: { widgets: ReadonlyArray<Widget>; prefix?: string; entry?: unknown }) {
  return (
    <>
      {widgets.map((w) => (
        <WidgetView key={`${prefix}/${w.kind}/${w.field}`} widget={w} prefix={prefix} entry={entry} />
      ))}
    </>
  )
})

function WidgetView({ widget, prefix, entry }: { widget: Widget; prefix: string; entry: unknown }) {
  const path = joinPath(prefix, widget.field)
  switch (widget.kind) {
    case 'choice':
      return <ChoiceWidget widget={widget} path={path} />
    case 'scale':
      return <ScaleWidget widget={widget} path={path} />
    case 'boolean':
      return <BooleanWidget widget={widget} path={path} />
    case 'number':
      return <NumberWidget widget={widget} path={path} />
    case 'text':
      return <TextWidget widget={widget} path={path} />
    case 'quote':
      return <QuoteWidget widget={widget} path={path} entry={entry} />
    case 'code':
      return <CodeWidget widget={widget} path={path} />
    case 'rubric':
      return <RubricWidget widget={widget} path={path} prefix={prefix} />
    case 'units':
      return <UnitsView widget={widget} path={path} />
    case 'list':
      return <ListView widget={widget} path={path} />
  }
}

/** One block per unit (P1…P5): the unit's text as shown, then its widgets. */
function UnitsView({ widget, path }: { widget: Extract<Widget, { kind: 'units' }>; path: string }) {
  const form = useForm()
  const units = getAt(form.data, path)
  const shown = getAt(form.view, widget.unitsFrom)
  const textOf = (id: unknown): string => {
    if (!Array.isArray(shown)) return ''
    const unit = shown.find((u) => (u as Record<string, unknown>)?.[widget.unitIdField] === id) as Record<string, unknown> | undefined
    return typeof unit?.text === 'string' ? unit.text : ''
  }
  return (
    <section className="units" aria-label={widget.label}>
      <h3 className="form-heading">{widget.label}</h3>
      {Array.isArray(units) &&
        units.map((u, i) => {
          const id = (u as Record<string, unknown>)?.[widget.unitIdField]
          const unitPath = joinPath(path, i)
          const inside = form.cursor !== null && form.cursor.startsWith(`${unitPath}.`)
          return (
            <article key={unitPath} className={inside ? 'unit current' : 'unit'} data-unit={String(id)} data-testid="unit">
              <header className="unit-head">
                <span className="unit-id">{String(id)}</span>
              </header>
              <div className="unit-text">
                <Markdown text={textOf(id)} />
              </div>
              <FormRenderer widgets={widget.widgets} prefix={unitPath} entry={u} />
            </article>
          )
        })}
    </section>
  )
}

/** Entries the annotator adds and removes (flaws, assumptions); the last stop adds one more. */
function ListView({ widget, path }: { widget: Extract<Widget, { kind: 'list' }>; path: string }) {
  const form = useForm()
  const entries = getAt(form.data, path)
  const addPath = addStopPath(path)
  const list = Array.isArray(entries) ? entries : []
  return (
    <section className="list" aria-label={widget.label}>
      <h3 className="form-heading">
        {widget.label} <span className="muted small">({list.length})</span>
      </h3>
      {list.map((entry, i) => {
        const entryPath = joinPath(path, i)
        const inside = form.cursor !== null && form.cursor.startsWith(`${entryPath}.`)
        return (
          <article key={entryPath} className={inside ? 'entry current' : 'entry'} data-testid="list-entry">
            <header className="unit-head">
              <span className="unit-id">
                {widget.itemLabel} {i + 1}
              </span>
              <button type="button" tabIndex={-1} className="link" onClick={() => form.removeEntry(entryPath)}>
                Remove <kbd>Del</kbd>
              </button>
            </header>
            <FormRenderer widgets={widget.widgets} prefix={entryPath} entry={entry} />
          </article>
        )
      })}
      <div
        className={form.cursor === addPath ? 'stop add-stop active' : 'stop add-stop'}
        data-stop={addPath}
        tabIndex={-1}
        onFocus={() => form.noteFocus(addPath)}
      >
        <button type="button" tabIndex={-1} onClick={() => form.addEntry(path, widget)}>
          Add {widget.itemLabel.toLowerCase()} <kbd>+</kbd> / <kbd>Enter</kbd>
        </button>
        {form.messagesAt(addPath).map((m) => (
          <p key={m} className="field-issue" role="alert" data-testid="field-issue" data-path={path}>
            {m}
          </p>
        ))}
      </div>
    </section>
  )
}
