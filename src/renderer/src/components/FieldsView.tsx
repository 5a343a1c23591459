import { Markdown } from './Markdown'

// Any item or view value as labelled fields — never raw JSON. Text is Markdown with maths; `path` names where the
// value sits, so text shown to annotators keeps its quote source.

export function humanize(key: string): string {
  const words = key.replace(/_/g, ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

function present(v: unknown): boolean {
  return v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0)
}

export function FieldsView({ value, path }: { value: unknown; path: string }) {
  if (typeof value === 'string') return <Markdown text={value} quoteSource={path || undefined} />
  if (typeof value === 'number' || typeof value === 'boolean') return <p>{String(value)}</p>
  if (Array.isArray(value)) {
    return (
      <ul className="view-list">
        {value.map((v, i) => (
          <li key={i}>
            <FieldsView value={v} path={path ? `${path}.${i}` : String(i)} />
          </li>
        ))}
      </ul>
    )
  }
  if (value !== null && typeof value === 'object') {
    return (
      <div className="view-object">
        {Object.entries(value)
          .filter(([, v]) => present(v))
          .map(([k, v]) => (
            <div key={k} className="view-sub" data-source-field={k}>
              <h4>{humanize(k)}</h4>
              <FieldsView value={v} path={path ? `${path}.${k}` : k} />
            </div>
          ))}
      </div>
    )
  }
  return null
}
