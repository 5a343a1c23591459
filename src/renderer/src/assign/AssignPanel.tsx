import { useEffect, useState } from 'react'
import type { OperationOutput } from '../../../shared/contract/operations'
import type { InstrumentId } from '../../../shared/instruments/types'
import { allInstruments } from '../../../shared/instruments'
import { SPLITS, type Split } from '../../../shared/items/labels'
import { api } from '../api'
import { Choices } from '../components/Choices'
import { TableScroll } from '../components/TableScroll'

type Annotator = OperationOutput<'annotators.list'>['annotators'][number]
type AssignResult = OperationOutput<'assignments.create'>

/**
 * The curator's side of annotation: who annotates what. Each eligible item goes to k annotators, balanced, and each
 * person's queue has its own seeded order. Re-running adds only missing assignments. Annotators are picked from the
 * existing profiles (a mistyped name is not a new person); adding a profile is its own form.
 */
export function AssignPanel() {
  const [annotators, setAnnotators] = useState<Annotator[]>([])
  const [sets, setSets] = useState<string[]>([])
  const [instrument, setInstrument] = useState<InstrumentId>('pairwise-preference')
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set())
  const [newName, setNewName] = useState('')
  const [newExpertise, setNewExpertise] = useState('')
  const [added, setAdded] = useState<string | null>(null)
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
  // Profiles and progress change from elsewhere on this screen (and from other windows): the table follows.
  useEffect(() => api.on('project.changed', (c) => (c.what === 'assignments' || c.what === 'annotations') && reload()), [])

  const list = annotators.filter((a) => picked.has(a.name)).map((a) => a.name)
  const toggle = (name: string, on: boolean) =>
    setPicked((prev) => {
      const next = new Set(prev)
      if (on) next.add(name)
      else next.delete(name)
      return next
    })

  // One outcome at a time: each act replaces what the last one said, so a success never stands beside a refusal.
  const clearOutcome = () => {
    setError(null)
    setAdded(null)
    setResult(null)
  }

  async function assign() {
    clearOutcome()
    try {
      const r = await api['assignments.create']({ instrument, annotators: list, overlap, existingOnly: true, ...(set ? { set } : {}), ...(split ? { split } : {}) })
      setResult(r)
      reload()
    } catch (e) {
      setError((e as Error).message)
    }
  }

  async function addAnnotator() {
    clearOutcome()
    const name = newName.trim()
    if (!name) return setError('Enter the new annotator’s name.')
    if (annotators.some((a) => a.name === name)) return setError(`${name} already has a profile.`)
    try {
      const a = await api['annotators.create']({ name, ...(newExpertise.trim() ? { expertise: newExpertise.trim() } : {}) })
      setAdded(`${a.name} added as ${a.pseudonym}.`)
      setNewName('')
      setNewExpertise('')
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
            {allInstruments().map(({ id, title }) => (
              <option key={id} value={id}>
                {title}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="assign-annotators">
          <legend>Annotators</legend>
          {annotators.length === 0 && <span className="muted small">No profiles yet: add one below.</span>}
          {annotators.map((a) => (
            <label key={a.id} className="check">
              <input type="checkbox" checked={picked.has(a.name)} onChange={(e) => toggle(a.name, e.target.checked)} /> {a.name}
            </label>
          ))}
        </fieldset>
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
      <form
        className="assign-add"
        aria-label="Add an annotator"
        onSubmit={(e) => {
          e.preventDefault()
          void addAnnotator()
        }}
      >
        <h3>Add an annotator</h3>
        <label>
          Name
          <input aria-label="New annotator name" value={newName} onChange={(e) => setNewName(e.target.value)} />
        </label>
        <label>
          Expertise (optional)
          <input aria-label="New annotator expertise" value={newExpertise} onChange={(e) => setNewExpertise(e.target.value)} />
        </label>
        <button type="submit" disabled={newName.trim() === ''}>
          Add annotator
        </button>
      </form>
      {added && (
        <p role="status" data-testid="annotator-added">
          {added}
        </p>
      )}
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
        <TableScroll label="Annotators and their progress"><table className="grid" data-testid="annotator-table">
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
        </table></TableScroll>
      )}
    </section>
  )
}
