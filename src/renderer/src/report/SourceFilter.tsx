export interface JudgeOption {
  id: string
  name: string
  colour: string
}

/**
 * Which judges the report shows: every judge by default; unticking one asks main for the report without it. People
 * and criteria always stay, since they are what a judge is scored against.
 */
export function SourceFilter({
  options,
  selected,
  onChange
}: {
  options: readonly JudgeOption[]
  /** null: every judge. */
  selected: ReadonlySet<string> | null
  onChange: (next: ReadonlySet<string> | null) => void
}) {
  if (options.length === 0) return null
  const isOn = (id: string) => selected === null || selected.has(id)
  const count = selected === null ? options.length : options.filter((o) => selected.has(o.id)).length
  const toggle = (id: string) => {
    const next = new Set(selected ?? options.map((o) => o.id))
    if (next.has(id)) next.delete(id)
    else next.add(id)
    // At least one judge stays: an empty filter would mean "no filter" to a reader and "nothing" to main.
    if (next.size === 0) return
    onChange(next.size === options.length ? null : next)
  }
  return (
    <details className="report-source-filter" data-testid="source-filter">
      <summary>
        Judges: {count === options.length ? `all ${options.length}` : `${count} of ${options.length}`}
      </summary>
      <fieldset>
        <legend className="small muted">Show in the report</legend>
        {options.map((o) => (
          <label key={o.id} className="report-source-option">
            <input type="checkbox" checked={isOn(o.id)} onChange={() => toggle(o.id)} data-source={o.id} />
            <span className="swatch" data-colour={o.colour} style={{ background: o.colour }} />
            {o.name}
          </label>
        ))}
        {selected !== null && (
          <button type="button" className="link" onClick={() => onChange(null)}>
            Show every judge
          </button>
        )}
      </fieldset>
    </details>
  )
}
