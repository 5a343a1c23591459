import { useCallback, useEffect, useState } from 'react'
import type { DisagreementRow } from '../../../shared/contract/packet-operations'
import type { OperationOutput } from '../../../shared/contract/operations'
import { allInstruments, type InstrumentId } from '../../../shared/instruments'
import { api } from '../api'
import { AdjudicationDetail, nameOf } from './AdjudicationDetail'
import { PacketsPanel } from './PacketsPanel'
import { RuleEditor } from './RuleEditor'
import './adjudicate.css'

type DisagreementList = OperationOutput<'adjudication.list'>

function stateOf(row: DisagreementRow): { label: string; className: string } {
  if (!row.disagree) return { label: row.adjudication ? 'agree · decided' : 'agree', className: 'state-agree' }
  if (row.adjudication && row.stale) return { label: 'new answers since the decision', className: 'state-stale' }
  if (row.adjudication) return { label: 'decided', className: 'state-adjudicated' }
  return { label: 'open', className: 'state-open' }
}

/**
 * Curator screen: items where annotators disagree (by the instrument's configurable rule), their answers side by
 * side, and the final label with a reason; plus the packets that take work to annotators offline and bring it back.
 */
export function AdjudicationScreen() {
  const [tab, setTab] = useState<'disagreements' | 'packets'>('disagreements')
  const [instrument, setInstrument] = useState<InstrumentId>('pairwise-preference')
  const [includeAgreeing, setIncludeAgreeing] = useState(false)
  const [list, setList] = useState<DisagreementList | null>(null)
  const [selected, setSelected] = useState<number | null>(null)
  const [error, setError] = useState<string | null>(null)

  const reload = useCallback(() => {
    api['adjudication.list']({ instrument, includeAgreeing }).then(
      (l) => {
        setList(l)
        setError(null)
      },
      (e: Error) => setError(e.message)
    )
  }, [instrument, includeAgreeing])

  useEffect(() => {
    setSelected(null)
    reload()
  }, [reload])

  useEffect(() => api.on('project.changed', (e) => e.what === 'annotations' && reload()), [reload])

  /** The next or previous item of the list (n/p in the form). */
  const step = (by: 1 | -1) => {
    const rows = list?.rows ?? []
    const at = rows.findIndex((r) => r.itemId === selected)
    const next = rows[Math.max(0, Math.min(rows.length - 1, at + by))]
    if (next) setSelected(next.itemId)
  }

  return (
    <div className="adjudicate" data-testid="adjudication">
      <h1 className="visually-hidden">Adjudicate and packets</h1>
      <div className="adjudicate-bar">
        <nav className="tabs" aria-label="Adjudication">
          <button className={tab === 'disagreements' ? 'tab active' : 'tab'} onClick={() => setTab('disagreements')}>
            Disagreements
          </button>
          <button className={tab === 'packets' ? 'tab active' : 'tab'} onClick={() => setTab('packets')}>
            Packets
          </button>
        </nav>
        {tab === 'disagreements' && (
          <>
            <select aria-label="Instrument" value={instrument} onChange={(e) => setInstrument(e.target.value as InstrumentId)}>
              {allInstruments().map(({ id, title }) => (
                <option key={id} value={id}>
                  {title}
                </option>
              ))}
            </select>
            <label>
              <input type="checkbox" checked={includeAgreeing} onChange={(e) => setIncludeAgreeing(e.target.checked)} /> show agreeing items
            </label>
            {list && (
              <span className="counts" data-testid="adjudication-counts">
                {list.counts.compared} items with two or more answers · {list.counts.disagreements} disagree · {list.counts.adjudicated} decided ·{' '}
                {list.counts.open} open
              </span>
            )}
            <RuleEditor instrument={instrument} onChanged={reload} />
          </>
        )}
      </div>
      {tab === 'packets' ? (
        <PacketsPanel />
      ) : (
        <div className="adjudicate-body">
          <ul className="disagreement-list" aria-label="Items">
            {error && <li className="failure">{error}</li>}
            {list?.rows.length === 0 && <li className="muted padded">Nothing to adjudicate.</li>}
            {list?.rows.map((r) => {
              const state = stateOf(r)
              return (
                <li key={r.itemId}>
                  <button
                    type="button"
                    className="disagreement-row"
                    aria-current={selected === r.itemId}
                    data-testid="disagreement"
                    data-item={r.itemId}
                    onClick={() => setSelected(r.itemId)}
                  >
                    <div className="disagreement-title" title={nameOf(r)}>
                      {nameOf(r)}
                    </div>
                    <div className="disagreement-id">
                      <span className={`badge ${state.className}`}>{state.label}</span>
                    </div>
                    <div className="disagreement-fields">
                      {r.annotators.join(', ')}
                      {r.fields.length > 0 && ` · ${r.fields.map((f) => f.label).join(', ')}`}
                    </div>
                  </button>
                </li>
              )
            })}
          </ul>
          <div className="adjudication-detail">
            {selected === null ? (
              <p className="muted">Choose an item.</p>
            ) : (
              <AdjudicationDetail key={`${instrument}:${selected}`} instrument={instrument} itemId={selected} onRecorded={reload} onNavigate={step} />
            )}
          </div>
        </div>
      )}
    </div>
  )
}
