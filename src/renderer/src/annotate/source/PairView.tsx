import { useMemo } from 'react'
import { alignSections, splitSections } from '../../../../shared/markdown/sections'
import { Markdown } from '../../components/Markdown'

/**
 * Two proposals in rows of matching sections, so the same section of both sides starts at the same height. `heads`
 * name the columns and `sources` the view paths quotes and highlights map back to.
 */
export function PairView({
  topic,
  a,
  b,
  heads = ['A (left)', 'B (right)'],
  sources = ['a.markdown', 'b.markdown'],
  testId = 'source'
}: {
  topic: string | null
  a: string
  b: string
  heads?: readonly [string, string]
  sources?: readonly [string, string]
  testId?: string
}) {
  const rows = useMemo(() => alignSections(splitSections(a), splitSections(b)), [a, b])
  return (
    <div className="pair-view" data-testid={testId}>
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
        <div>{heads[0]}</div>
        <div>{heads[1]}</div>
      </div>
      {rows.map((r, i) => (
        <div key={i} className="pair-row" data-section-row={i} data-section={r.title}>
          <div className="pair-cell" data-side="a">
            {r.title && <h2>{r.title}</h2>}
            {r.a ? <Markdown text={r.a.body} sourceOffset={r.a.offset} quoteSource={sources[0]} /> : <p className="muted">(no such section)</p>}
          </div>
          <div className="pair-cell" data-side="b">
            {r.title && <h2>{r.title}</h2>}
            {r.b ? <Markdown text={r.b.body} sourceOffset={r.b.offset} quoteSource={sources[1]} /> : <p className="muted">(no such section)</p>}
          </div>
        </div>
      ))}
    </div>
  )
}
