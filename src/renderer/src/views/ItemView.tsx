import { useEffect, useState } from 'react'
import type { ItemDetail } from '../../../shared/contract/schemas'
import { api } from '../api'
import { useWorkbench } from '../workbench-state'
import { FieldsView } from '../components/FieldsView'
import { Markdown } from '../components/Markdown'
import type { FsProblem, HypothesisSet, ProposalPair, RediscoveryTask } from '../../../shared/items/kinds'
import { ProbeEditor } from '../probes/ProbeEditor'
import { TableScroll } from '../components/TableScroll'

/** The curator's view of one item: content rendered, metadata listed, test labels withheld until revealed. */
export function ItemView({ id }: { id: number }) {
  const setError = useWorkbench((s) => s.setError)
  const [item, setItem] = useState<ItemDetail | null>(null)
  const [revealed, setRevealed] = useState<Record<string, unknown> | null>(null)
  const [probing, setProbing] = useState(false)

  useEffect(() => {
    setItem(null)
    setRevealed(null)
    setProbing(false)
    void api['items.get']({ id }).then(setItem, (e: Error) => setError(e.message))
  }, [id, setError])

  if (!item) return <p className="muted">Loading…</p>
  return (
    <article className="item-view" data-testid="item-view">
      <header>
        <h1>{item.external_id}</h1>
        <p className="muted">
          {item.kind} · set {item.set_name} · split {item.split}
        </p>
        {item.withheld.length > 0 && (
          <div className="withheld">
            {revealed ? (
              <FieldsView value={revealed} path="" />
            ) : (
              <>
                Labels withheld (test split): {item.withheld.join(', ')}.{' '}
                <button onClick={() => void api['items.reveal']({ id }).then((r) => setRevealed(r.labels), (e: Error) => setError(e.message))}>
                  Reveal and log exposure
                </button>
              </>
            )}
          </div>
        )}
        {item.kind === 'proposal-pair' && item.payload.probe_of === undefined && !probing && (
          <button type="button" onClick={() => setProbing(true)}>
            Make a probe…
          </button>
        )}
      </header>
      {probing && <ProbeEditor itemId={item.id} pair={item.payload as unknown as ProposalPair} onClose={() => setProbing(false)} />}
      <ItemBody item={item} />
    </article>
  )
}

function ItemBody({ item }: { item: ItemDetail }) {
  const p = item.payload
  switch (item.kind) {
    case 'proposal-pair':
      return <PairBody pair={p as unknown as ProposalPair} />
    case 'rediscovery-task':
      return <TaskBody task={p as unknown as RediscoveryTask} />
    case 'hypothesis-set':
      return <HypothesesBody set={p as unknown as HypothesisSet} />
    case 'fs-problem':
      return <FsBody problem={p as unknown as FsProblem} />
    default:
      // Research questions, ideas and every other kind: labelled fields, text as Markdown with maths.
      return <FieldsView value={p} path="" />
  }
}

function Meta({ entries }: { entries: Array<[string, unknown]> }) {
  const shown = entries.filter(([, v]) => v !== undefined && v !== null && v !== '')
  if (!shown.length) return null
  return (
    <dl className="meta">
      {shown.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{typeof v === 'object' ? JSON.stringify(v) : String(v)}</dd>
        </div>
      ))}
    </dl>
  )
}

function PairBody({ pair }: { pair: ProposalPair }) {
  return (
    <>
      <Meta entries={[['topic', pair.topic], ['cohort', pair.cohort], ['cutoff', pair.cutoff_date], ['label', pair.label], ['probe', pair.probe]]} />
      <p className="side-frame small" data-testid="side-frame">
        Shown in <strong>canonical A/B</strong> order, the frame of adjudication and the audit report; each annotator's screen
        may show the two the other way round, and their answers are mapped back to this frame.
      </p>
      <div className="pair">
        {(['a', 'b'] as const).map((side) => (
          <section key={side} className="pair-side">
            <h2>
              Canonical {side.toUpperCase()}
              <span className="muted small">
                {' '}
                {[pair[side].origin, pair[side].generator, pair[side].citations != null ? `${pair[side].citations} citations` : null].filter(Boolean).join(' · ')}
              </span>
            </h2>
            <Markdown text={pair[side].markdown} />
          </section>
        ))}
      </div>
    </>
  )
}

function TaskBody({ task }: { task: RediscoveryTask }) {
  return (
    <>
      <Meta entries={[['subject', task.subject]]} />
      <h2>Background</h2>
      <Markdown text={task.background} />
      <h2>Question</h2>
      <Markdown text={task.question} />
      <h2>Reference finding</h2>
      <Markdown text={task.finding} />
      <ul>
        {task.key_points.map((k, i) => (
          <li key={i}>{k}</li>
        ))}
      </ul>
    </>
  )
}

function HypothesesBody({ set }: { set: HypothesisSet }) {
  return (
    <>
      <Meta entries={[['task', set.task_id], ['generator', set.generator], ['company', set.company], ['scheme', set.scheme]]} />
      <ol className="hypotheses">
        {set.hypotheses.map((h) => (
          <li key={h.id}>
            <strong>{h.id}</strong> {h.statement} <em>Mechanism:</em> {h.mechanism} <em>Prediction:</em> {h.prediction}
            {h.domain_category && <span className="muted small"> ({h.domain_category})</span>}
          </li>
        ))}
      </ol>
    </>
  )
}

function FsBody({ problem }: { problem: FsProblem }) {
  return (
    <>
      <Meta entries={[['track', problem.track], ['subject', problem.subject], ['task group', problem.task_group_id]]} />
      <h2>Problem</h2>
      <Markdown text={problem.problem} />
      <h2>{problem.track === 'research' ? 'Rubric' : 'Reference answer'}</h2>
      {problem.rubric?.length ? (
        <TableScroll label="Item fields table"><table className="grid">
          <thead>
            <tr>
              <th className="num">Points</th>
              <th>Item</th>
            </tr>
          </thead>
          <tbody>
            {problem.rubric.map((r, i) => (
              <tr key={i}>
                <td className="num">{r.points}</td>
                <td>
                  <Markdown text={r.item} />
                </td>
              </tr>
            ))}
          </tbody>
        </table></TableScroll>
      ) : (
        <Markdown text={problem.answer} />
      )}
      {problem.response && (
        <>
          <h2>Response to grade</h2>
          <Markdown text={problem.response} />
        </>
      )}
    </>
  )
}
