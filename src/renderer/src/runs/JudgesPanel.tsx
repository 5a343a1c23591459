import { useState } from 'react'
import type { JudgeListEntry } from '../../../shared/contract/run-operations'
import { api } from '../api'
import { useWorkbench } from '../workbench-state'
import { TableScroll } from '../components/TableScroll'

const PROVIDERS = ['openai', 'anthropic', 'google', 'openai-compatible'] as const
const EFFORTS = ['', 'minimal', 'low', 'medium', 'high'] as const

/** Judge configurations: the list, and a form to add one. */
export function JudgesPanel({ judges, onChange }: { judges: JudgeListEntry[]; onChange: () => void }) {
  const setError = useWorkbench((s) => s.setError)
  const [provider, setProvider] = useState<(typeof PROVIDERS)[number]>('openai')
  const [model, setModel] = useState('')
  const [name, setName] = useState('')
  const [baseUrl, setBaseUrl] = useState('')
  const [company, setCompany] = useState('')
  const [effort, setEffort] = useState<(typeof EFFORTS)[number]>('')
  const [temperature, setTemperature] = useState('')
  const [maxTokens, setMaxTokens] = useState('')
  const [structured, setStructured] = useState(false)
  const [keyName, setKeyName] = useState('')

  const create = async () => {
    try {
      await api['judges.create']({
        provider,
        model: model.trim(),
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}),
        ...(company.trim() ? { company: company.trim() } : {}),
        options: {
          ...(effort ? { reasoningEffort: effort } : {}),
          ...(temperature.trim() ? { temperature: Number(temperature) } : {}),
          ...(maxTokens.trim() ? { maxTokens: Number(maxTokens) } : {}),
          ...(structured ? { structuredOutput: true } : {}),
          ...(keyName.trim() ? { keyName: keyName.trim() } : {})
        }
      })
      setModel('')
      setName('')
      onChange()
    } catch (e) {
      setError((e as Error).message)
    }
  }

  return (
    <section className="runs-panel" aria-label="Judges">
      <h2>Judges</h2>
      <TableScroll label="Judges"><table className="grid" data-testid="judge-list">
        <thead>
          <tr>
            <th>Name</th>
            <th>Provider</th>
            <th>Model</th>
            <th>Company</th>
            <th>Options</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {judges.map((j) => (
            <tr key={j.id} data-archived={j.archived ? 'true' : undefined} className={j.archived ? 'archived' : undefined}>
              <td>
                {j.name}
                {j.archived && <span className="badge runs-archived">archived</span>}
              </td>
              <td>{j.provider}</td>
              <td>{j.model}{j.baseUrl ? <div className="muted small">{j.baseUrl}</div> : null}</td>
              <td>{j.effectiveCompany}</td>
              <td className="small">{Object.entries(j.options).map(([k, v]) => `${k}=${String(v)}`).join(', ') || '—'}</td>
              <td>
                {j.archived ? (
                  <button onClick={() => void api['judges.restore']({ judgeId: j.id }).then(onChange, (e: Error) => setError(e.message))}>Restore</button>
                ) : (
                  <button title="Keep the judge and its runs in the file but leave them out of reports and lists" onClick={() => void api['judges.archive']({ judgeId: j.id }).then(onChange, (e: Error) => setError(e.message))}>
                    Archive
                  </button>
                )}
              </td>
            </tr>
          ))}
          {judges.length === 0 && (
            <tr>
              <td colSpan={6} className="muted">No judge yet.</td>
            </tr>
          )}
        </tbody>
      </table></TableScroll>
      <h3>Add a judge</h3>
      <form
        className="runs-form"
        onSubmit={(e) => {
          e.preventDefault()
          void create()
        }}
      >
        <label>
          Provider
          <select value={provider} onChange={(e) => setProvider(e.target.value as (typeof PROVIDERS)[number])}>
            {PROVIDERS.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <label>
          Model
          <input value={model} onChange={(e) => setModel(e.target.value)} placeholder="gpt-4.1-mini" />
        </label>
        <label>
          Name (optional)
          <input value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Base URL{provider === 'openai-compatible' ? '' : ' (optional)'}
          <input value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} placeholder="http://127.0.0.1:8000/v1" />
        </label>
        <label>
          Company (optional)
          <input value={company} onChange={(e) => setCompany(e.target.value)} />
        </label>
        <label>
          Reasoning effort
          <select value={effort} onChange={(e) => setEffort(e.target.value as (typeof EFFORTS)[number])}>
            {EFFORTS.map((x) => (
              <option key={x} value={x}>
                {x || 'default'}
              </option>
            ))}
          </select>
        </label>
        <label>
          Temperature
          <input value={temperature} inputMode="decimal" onChange={(e) => setTemperature(e.target.value)} />
        </label>
        <label>
          Max tokens
          <input value={maxTokens} inputMode="numeric" onChange={(e) => setMaxTokens(e.target.value)} />
        </label>
        <label>
          Key name (optional)
          <input value={keyName} onChange={(e) => setKeyName(e.target.value)} placeholder="XAI" />
        </label>
        <label className="check">
          <input type="checkbox" checked={structured} onChange={(e) => setStructured(e.target.checked)} /> Structured output
        </label>
        <div className="actions">
          <button type="submit" disabled={!model.trim()}>
            Add judge
          </button>
        </div>
      </form>
    </section>
  )
}
