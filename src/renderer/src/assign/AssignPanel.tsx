import { useEffect, useState } from 'react'
import type { OperationOutput } from '../../../shared/contract/operations'
import { INSTRUMENT_IDS, type InstrumentId } from '../../../shared/instruments/types'
import { INSTRUMENTS } from '../../../shared/instruments'
import { SPLITS, type Split } from '../../../shared/items/labels'
import { api } from '../api'
import { Choices } from '../components/Choices'

type Annotator = OperationOutput<'annotators.list'>['annotators'][number]
type AssignResult = OperationOutput<'assignments.create'>

/**
 * The curator's side of annotation: who annotates what. Each eligible item goes to k annotators, balanced, and each
 * person's queue has its own seeded order. Re-running adds only missing assignments.
 */
export function AssignPanel() {
  const [annotators, setAnnotators] = useState<Annotator[]>([])
  const [sets, setSets] = useState<string[]>([])
  const [instrument, setInstrument] = useState<InstrumentId>('pairwise-preference')
  const [names, setNames] = useState('')
  const [overlap, setOverlap] = useState(1)
  const [set, setSet] = useState('')
  const [split, setSplit] = useState<Split | ''>('')
  const [result, setResult] = useState<AssignResult | null>(null)
  const [error, setError] = useState<string | null>(null)

  const reload = () => {
    void api['annotators.list']({}).then((r) => setAnnotators(r.annotators), (e: Error) => setError(e.message))
    void api['items.facets']({}).then((f) => setSets(f.sets), () => setSets([]))
  }
  useEffect(reload, [])

  const list = names
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean)

  async function assign() {
    setError(null)
    try {
      const r = await api['assignments.create']({ instrument, annotators: list, overlap, ...(set ? { set } : {}), ...(split ? { split } : {}) })
      setResult(r)
      reload()
    } catch (e) {
      setError((e as Error).message)
    }
  }

  return (
    <section className="assign" data-testid="assign-panel">
      <h2>Assign items</h2>
      <form
        className="assign-form"
        onSubmit={(e) => {
          e.preventDefault()
          void assign()
        }}
      >
        <label>
          Instrument
          <select aria-label="Assign instrument" value={instrument} onChange={(e) => setInstrument(e.target.value as InstrumentId)}>
            {INSTRUMENT_IDS.map((id) => (
              <option key={id} value={id}>
                {INSTRUMENTS[id].title}
              </option>
            ))}
          </select>
        </label>
        <label>
          Annotators (comma-separated)
          <input aria-label="Annotator names" value={names} onChange={(e) => setNames(e.target.value)} placeholder="Ada, Ben, Cy" />
        </label>
        <label>
          Overlap k
          <input aria-label="Overlap" type="number" min={1} max={Math.max(1, list.length)} value={overlap} onChange={(e) => setOverlap(Number(e.target.value))} />
        </label>
        <label>
          Set
          <select aria-label="Assign set" value={set} onChange={(e) => setSet(e.target.value)}>
            <Choices values={sets} empty="All sets" />
          </select>
        </label>
        <label>
          Split
          <select aria-label="Assign split" value={split} onChange={(e) => setSplit(e.target.value as Split | '')}>
            <Choices values={SPLITS} empty="All splits" />
          </select>
        </label>
        <button type="submit" disabled={list.length === 0}>
          Assign
        </button>
      </form>
      {error && (
        <p className="error-box" role="alert">
          {error}
        </p>
      )}
      {result && (
        <p data-testid="assign-result">
          {result.items} eligible items · {result.created} new assignments (
          {Object.entries(result.perAnnotator)
            .map(([n, c]) => `${n} ${c}`)
            .join(', ')}
          ) · seed {result.seed}
        </p>
      )}
      {annotators.length > 0 && (
        <table className="grid">
          <thead>
            <tr>
              <th>Annotator</th>
              <th>Pseudonym</th>
              <th>Expertise</th>
              <th className="num">Assigned</th>
              <th className="num">Done</th>
            </tr>
          </thead>
          <tbody>
            {annotators.map((a) => (
              <tr key={a.id}>
                <td>{a.name}</td>
                <td>{a.pseudonym}</td>
                <td>{a.expertise ?? ''}</td>
                <td className="num">{a.assignments}</td>
                <td className="num">{a.done}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
