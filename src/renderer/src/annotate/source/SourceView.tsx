import { memo, useMemo } from 'react'
import type { Widget } from '../../../../shared/instruments/types'
import { FieldsView, humanize } from '../../components/FieldsView'
import { Markdown } from '../../components/Markdown'
import { alignSections, splitSections } from '../../../../shared/markdown/sections'
import { isPairView, keysShownByForm } from '../../../../shared/markdown/view-texts'

// What the annotator reads: only the blinded view main sent. A pair of proposals is shown side by side, section
// by section; any other view is shown field by field.

export const SourceView = memo(function SourceView({ view, widgets }: { view: Record<string, unknown>; widgets: ReadonlyArray<Widget> }) {
  if (isPairView(view)) {
    const a = (view.a as { markdown: string }).markdown
    const b = (view.b as { markdown: string }).markdown
    return <PairView topic={typeof view.topic === 'string' ? view.topic : null} a={a} b={b} />
  }
  const skip = keysShownByForm(widgets)
  return (
    <div className="view-fields" data-testid="source">
      {Object.entries(view)
        .filter(([k, v]) => !skip.has(k) && v !== null && v !== undefined && v !== '')
        .map(([k, v]) => (
          <section key={k} className="view-field" data-source={k}>
            <h3>{humanize(k)}</h3>
            <FieldsView value={v} path={k} />
          </section>
        ))}
    </div>
  )
})

/** Two proposals in rows of matching sections, so the same section of both sides starts at the same height. */
function PairView({ topic, a, b }: { topic: string | null; a: string; b: string }) {
  const rows = useMemo(() => alignSections(splitSections(a), splitSections(b)), [a, b])
  return (
    <div className="pair-view" data-testid="source">
      {topic && <p className="pair-topic">{topic}</p>}
      <nav className="section-bar" aria-label="Sections">
        {rows.map((r, i) =>
          r.title ? (
            <button
              key={i}
              type="button"
              tabIndex={-1}
              onClick={(e) => e.currentTarget.closest('.pair-view')?.querySelector(`[data-section-row="${i}"]`)?.scrollIntoView({ block: 'start' })}
            >
              {r.title}
            </button>
          ) : null
        )}
        <span className="muted small">
          <kbd>[</kbd> <kbd>]</kbd> section
        </span>
      </nav>
      <div className="pair-head">
        <div>A (left)</div>
        <div>B (right)</div>
      </div>
      {rows.map((r, i) => (
        <div key={i} className="pair-row" data-section-row={i} data-section={r.title}>
          <div className="pair-cell" data-side="a">
            {r.title && <h2>{r.title}</h2>}
            {r.a ? <Markdown text={r.a.body} sourceOffset={r.a.offset} quoteSource="a.markdown" /> : <p className="muted">(no such section)</p>}
          </div>
          <div className="pair-cell" data-side="b">
            {r.title && <h2>{r.title}</h2>}
            {r.b ? <Markdown text={r.b.body} sourceOffset={r.b.offset} quoteSource="b.markdown" /> : <p className="muted">(no such section)</p>}
          </div>
        </div>
      ))}
    </div>
  )
}
