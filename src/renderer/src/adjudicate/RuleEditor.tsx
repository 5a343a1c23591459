import { useEffect, useState } from 'react'
import type { DisagreementRuleView, FieldRule } from '../../../shared/contract/packet-operations'
import type { InstrumentId } from '../../../shared/instruments'
import { api } from '../api'
import { TableScroll } from '../components/TableScroll'

/** The disagreement rule of one instrument, per field: any difference, a difference of at least N, or ignored. */
export function RuleEditor({ instrument, onChanged }: { instrument: InstrumentId; onChanged: () => void }) {
  const [rule, setRule] = useState<DisagreementRuleView | null>(null)
  const [edits, setEdits] = useState<Record<string, FieldRule>>({})
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    setEdits({})
    api['adjudication.rule']({ instrument }).then(setRule, (e: Error) => setError(e.message))
  }, [instrument])

  if (!rule) return error ? <p className="failure">{error}</p> : null
  const ruleOf = (name: string) => edits[name] ?? rule.fields.find((f) => f.name === name)!.rule
  const set = (name: string, r: FieldRule) => setEdits((e) => ({ ...e, [name]: r }))
  const save = async (fields: Record<string, FieldRule> | null) => {
    setError(null)
    try {
      setRule(await api['adjudication.setRule']({ instrument, fields }))
      setEdits({})
      onChanged()
    } catch (e) {
      setError((e as Error).message)
    }
  }
  return (
    <details className="rule-editor" data-testid="rule-editor">
      <summary>When answers disagree</summary>
      <TableScroll label="Adjudication rule"><table className="rule-table">
        <thead>
          <tr>
            <th>Field</th>
            <th>Level</th>
            <th>Disagree when</th>
          </tr>
        </thead>
        <tbody>
          {rule.fields.map((f) => {
            const r = ruleOf(f.name)
            const numeric = f.level !== 'nominal' && f.level !== 'text'
            return (
              <tr key={f.name}>
                <td>
                  {f.label}
                  {!f.isDefault && <span className="muted small"> (set)</span>}
                </td>
                <td className="muted">{f.level}</td>
                <td>
                  <select
                    aria-label={`Rule for ${f.label}`}
                    value={r.kind}
                    onChange={(e) => {
                      const kind = e.target.value as FieldRule['kind']
                      set(f.name, kind === 'difference' ? { kind, threshold: 1 } : { kind })
                    }}
                  >
                    <option value="any">any difference</option>
                    {numeric && <option value="difference">a difference of at least</option>}
                    <option value="ignore">never (ignored)</option>
                  </select>{' '}
                  {r.kind === 'difference' && (
                    <input
                      type="number"
                      min={0}
                      step="any"
                      style={{ width: '6em' }}
                      aria-label={`Threshold for ${f.label}`}
                      value={r.threshold}
                      onChange={(e) => set(f.name, { kind: 'difference', threshold: Number(e.target.value) })}
                    />
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table></TableScroll>
      <button type="button" onClick={() => void save(Object.fromEntries(rule.fields.map((f) => [f.name, ruleOf(f.name)])))}>
        Save rule
      </button>{' '}
      <button type="button" onClick={() => void save(null)}>
        Back to the defaults
      </button>
      {error && <p className="failure">{error}</p>}
    </details>
  )
}
