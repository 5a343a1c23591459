import { useCallback, useEffect, useState } from 'react'
import { api } from '../api'
import { useWorkbench } from '../workbench-state'

type KeyStatus = Awaited<ReturnType<(typeof api)['keys.status']>>

const REFS = [
  { ref: 'openai', label: 'OpenAI' },
  { ref: 'anthropic', label: 'Anthropic' },
  { ref: 'google', label: 'Google (Gemini)' }
] as const

/**
 * API keys: which are present and where they are kept. A key typed here goes to main once and is never shown or sent
 * back; a platform without safe storage is named in a warning.
 */
export function KeysPanel() {
  const setError = useWorkbench((s) => s.setError)
  const [status, setStatus] = useState<KeyStatus | null>(null)
  const [ref, setRef] = useState('openai')
  const [named, setNamed] = useState('')
  const [key, setKey] = useState('')

  const load = useCallback(() => {
    void api['keys.status']({}).then(setStatus, (e: Error) => setError(e.message))
  }, [setError])
  useEffect(load, [load])

  const target = ref === 'named' ? `named:${named.trim().toUpperCase()}` : ref
  const save = async () => {
    try {
      setStatus(await api['keys.set']({ ref: target, key }))
      setKey('')
    } catch (e) {
      setError((e as Error).message)
    }
  }

  return (
    <section className="runs-panel" aria-label="API keys">
      <h2>API keys</h2>
      {status?.storage.warning && <p className="runs-warning" role="note">{status.storage.warning}</p>}
      {status && !status.storage.encrypted && !status.storage.warning && (
        <p className="runs-warning" role="note">Keys are stored without platform encryption ({status.storage.backend}).</p>
      )}
      <ul className="small" data-testid="key-list">
        {status?.keys.length ? status.keys.map((k) => <li key={k.ref}>{k.ref} — {k.source}</li>) : <li className="muted">No keys yet.</li>}
      </ul>
      <form
        className="runs-form"
        onSubmit={(e) => {
          e.preventDefault()
          void save()
        }}
      >
        <label>
          Key for
          <select value={ref} onChange={(e) => setRef(e.target.value)}>
            {REFS.map((r) => (
              <option key={r.ref} value={r.ref}>
                {r.label}
              </option>
            ))}
            <option value="named">Named key (compatible endpoint)…</option>
          </select>
        </label>
        {ref === 'named' && (
          <label>
            Key name
            <input value={named} placeholder="XAI" onChange={(e) => setNamed(e.target.value)} />
          </label>
        )}
        <label>
          Key
          <input type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} />
        </label>
        <div className="actions">
          <button type="submit" disabled={!key.trim() || (ref === 'named' && !named.trim())}>
            Store key
          </button>
        </div>
      </form>
    </section>
  )
}
