import { memo, useMemo } from 'react'
import type { Widget } from '../../../../shared/instruments/types'
import { FieldsView, humanize } from '../../components/FieldsView'
import { Markdown } from '../../components/Markdown'
import { markdownTree } from '../../components/markdown-tree'
import { alignSections, splitSections } from '../sections'

// What the annotator reads: only the blinded view main sent. A pair of proposals is shown side by side, section
// by section; any other view is shown field by field.

export function isPairView(view: Record<string, unknown>): boolean {
  const md = (side: unknown) => side !== null && typeof side === 'object' && typeof (side as { markdown?: unknown }).markdown === 'string'
  return md(view.a) && md(view.b)
}

/** View keys the form shows itself (units next to their widgets, rubric items with their points). */
export function keysShownByForm(widgets: ReadonlyArray<Widget>): Set<string> {
  const keys = new Set<string>()
  const walk = (list: ReadonlyArray<Widget>) => {
    for (const w of list) {
      if (w.kind === 'units') keys.add(w.unitsFrom.split('.')[0]!)
      if (w.kind === 'rubric') keys.add(w.source.split('.')[0]!)
      if (w.kind === 'units' || w.kind === 'list') walk(w.widgets)
    }
  }
  walk(widgets)
  return keys
}

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
              onClick={() => document.querySelector(`[data-section-row="${i}"]`)?.scrollIntoView({ block: 'start' })}
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

/**
 * Parses every text SourceView would render for `view` (the same texts at the same offsets), so an item parsed while
 * it waits in the queue is shown without a parse.
 */
export function prerenderView(view: Record<string, unknown>, widgets: ReadonlyArray<Widget>): void {
  if (isPairView(view)) {
    for (const r of alignSections(splitSections((view.a as { markdown: string }).markdown), splitSections((view.b as { markdown: string }).markdown))) {
      if (r.a) markdownTree(r.a.body, r.a.offset)
      if (r.b) markdownTree(r.b.body, r.b.offset)
    }
    return
  }
  const skip = keysShownByForm(widgets)
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      if (v !== '') markdownTree(v)
    } else if (Array.isArray(v)) v.forEach(walk)
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk)
  }
  for (const [k, v] of Object.entries(view)) if (!skip.has(k)) walk(v)
}
