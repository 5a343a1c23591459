import { isCodeValue } from '../annotate/validate'
import { Markdown } from '../components/Markdown'
import type { FieldLabels } from './field-labels'

/** Field values that name a side of a pair, shown in the one frame the adjudication screen uses. */
const SIDE_FIELDS = new Set(['side', 'proposal'])
const SIDE_VERDICT = /^(a|b)_(much_)?better$/

/** A value in words: sides in the canonical frame, else the form's label for the choice, else the value itself. */
function words(key: string | null, value: string, sides: boolean, labels: FieldLabels | undefined): string {
  if (sides) {
    if (key !== null && SIDE_FIELDS.has(key) && (value === 'a' || value === 'b')) return `canonical ${value.toUpperCase()}`
    const verdict = SIDE_VERDICT.exec(value)
    if (verdict) return `canonical ${verdict[1]!.toUpperCase()} ${verdict[2] ? 'much ' : ''}better`
  }
  return (key !== null ? labels?.get(key)?.options.get(value) : undefined) ?? value
}

/**
 * An answer as nested fields: what each annotator said, readable side by side without knowing the instrument.
 * Worked checks keep their line breaks; with `sides`, sides are named as canonical A and B; with `labels`, fields
 * and choices read as the form words them.
 */
export function JudgementView({
  value,
  sides = false,
  name = null,
  labels
}: {
  value: unknown
  sides?: boolean
  name?: string | null
  /** The form's words for fields and choices (raw names where absent). */
  labels?: FieldLabels
}) {
  if (value === null || value === undefined || value === '') return <span className="muted">—</span>
  if (typeof value === 'string') {
    const text = words(name, value, sides, labels)
    // Quotes and notes with maths are shown by the one renderer annotators read them in.
    if (text.includes('$')) return <Markdown text={text} />
    return text.includes('\n') ? <span className="judgement-text">{text}</span> : <span>{text}</span>
  }
  if (typeof value !== 'object') return <span>{String(value)}</span>
  if (isCodeValue(value)) {
    return (
      <div className="judgement-code" data-testid="worked-check">
        <pre className="code-block">
          <code>{value.code}</code>
        </pre>
        {value.output && (
          <>
            <div className="muted small">output{value.ran_at ? ` (run ${value.ran_at.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')})` : ''}</div>
            <pre className="check-output">{value.output}</pre>
          </>
        )}
      </div>
    )
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="muted">none</span>
    return (
      <ol className="judgement-list">
        {value.map((v, i) => (
          <li key={i}>
            <JudgementView value={v} sides={sides} name={name} labels={labels} />
          </li>
        ))}
      </ol>
    )
  }
  return (
    <dl className="judgement-view">
      {Object.entries(value as Record<string, unknown>).map(([k, v]) => (
        <div key={k}>
          <dt>{labels?.get(k)?.label ?? k.replace(/_/g, ' ')}</dt>
          <dd>
            <JudgementView value={v} sides={sides} name={k} labels={labels} />
          </dd>
        </div>
      ))}
    </dl>
  )
}
