import { useEffect, useRef, useState } from 'react'
import type { OperationOutput } from '../../../shared/contract/operations'
import { api } from '../api'
import { useWorkbench } from '../workbench-state'

type Annotator = OperationOutput<'annotators.list'>['annotators'][number]

/**
 * Before annotating, a curator says who is annotating: an existing profile or a new name (the profile is created).
 * From then on the window shows only what that annotator may see, until switched back.
 */
export function WhoIsAnnotating() {
  const load = useWorkbench((s) => s.load)
  const [annotators, setAnnotators] = useState<Annotator[]>([])
  const [name, setName] = useState('')
  const [error, setError] = useState<string | null>(null)
  const input = useRef<HTMLInputElement>(null)

  useEffect(() => {
    input.current?.focus()
    const reload = () =>
      api['annotators.list']({}).then(
        (r) => setAnnotators(r.annotators),
        () => setAnnotators([])
      )
    void reload()
    // A profile added or assigned below, on the same screen, shows here at once, with its progress.
    return api.on('project.changed', (c) => {
      if (c.what === 'assignments' || c.what === 'annotations') void reload()
    })
  }, [])

  const start = async (who: string) => {
    const trimmed = who.trim()
    if (!trimmed) return setError('Enter a name.')
    try {
      await api['session.setRole']({ role: 'annotator', annotator: trimmed })
      await load()
    } catch (e) {
      setError((e as Error).message)
    }
  }

  return (
    <section className="who" data-testid="who-is-annotating">
      <h1>Who is annotating?</h1>
      <p className="muted">
        Annotation is blind: while annotating, this window shows only the blinded items of the chosen person, never origins,
        labels or other people's answers.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void start(name)
        }}
      >
        <label>
          Name{' '}
          <input ref={input} value={name} list="known-annotators" onChange={(e) => setName(e.target.value)} aria-label="Annotator name" />
        </label>{' '}
        <button type="submit">Start annotating</button>
        <datalist id="known-annotators">
          {annotators.map((a) => (
            <option key={a.id} value={a.name} />
          ))}
        </datalist>
      </form>
      {error && (
        <p className="field-issue" role="alert">
          {error}
        </p>
      )}
      {annotators.length > 0 && (
        <>
          <h2>Profiles</h2>
          <ul className="annotator-list">
            {annotators.map((a) => (
              <li key={a.id}>
                <button type="button" onClick={() => void start(a.name)}>
                  {a.name}
                </button>{' '}
                <span className="muted small">
                  {a.pseudonym} · {a.done} of {a.assignments} done
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}
