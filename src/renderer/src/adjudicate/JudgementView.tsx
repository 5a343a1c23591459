/** An answer as nested fields: what each annotator said, readable side by side without knowing the instrument. */
export function JudgementView({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '') return <span className="muted">—</span>
  if (typeof value !== 'object') return <span>{String(value)}</span>
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="muted">none</span>
    return (
      <ol className="judgement-list">
        {value.map((v, i) => (
          <li key={i}>
            <JudgementView value={v} />
          </li>
        ))}
      </ol>
    )
  }
  return (
    <dl className="judgement-view">
      {Object.entries(value as Record<string, unknown>).map(([k, v]) => (
        <div key={k}>
          <dt>{k.replace(/_/g, ' ')}</dt>
          <dd>
            <JudgementView value={v} />
          </dd>
        </div>
      ))}
    </dl>
  )
}
