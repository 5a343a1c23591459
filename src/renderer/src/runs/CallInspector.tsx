import { useEffect, useState } from 'react'
import type { CallDetail, CallRow } from '../../../shared/contract/run-operations'
import { api } from '../api'
import { useWorkbench } from '../workbench-state'
import { formatUsd } from './format'
import { TableScroll } from '../components/TableScroll'

const STATUSES = ['', 'ok', 'unparseable', 'failed', 'pending'] as const
const PAGE = 200

/**
 * The calls of one run and, for the one chosen, what was sent and what came back. A judge's output on a test-split
 * item is shown only on request, and the request is logged as an exposure of that item.
 */
export function CallInspector({ runId, version }: { runId: number; version: number }) {
  const setError = useWorkbench((s) => s.setError)
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('')
  const [rows, setRows] = useState<CallRow[]>([])
  const [total, setTotal] = useState(0)
  const [chosen, setChosen] = useState<CallRow | null>(null)
  const [detail, setDetail] = useState<CallDetail | null>(null)

  useEffect(() => {
    void api['runs.calls']({ runId, limit: PAGE, offset: 0, ...(status ? { status } : {}) }).then(
      (r) => {
        setRows(r.rows)
        setTotal(r.total)
      },
      (e: Error) => setError(e.message)
    )
  }, [runId, status, version, setError])

  useEffect(() => {
    setChosen(null)
    setDetail(null)
  }, [runId])

  const open = (row: CallRow) => {
    setChosen(row)
    setDetail(null)
    // Held-out items wait for an explicit request; other items show at once.
    if (row.split !== 'test') load(row.id)
  }
  const load = (callId: number) => {
    void api['runs.call']({ callId }).then(setDetail, (e: Error) => setError(e.message))
  }

  return (
    <section className="runs-panel" aria-label="Calls">
      <h2>Calls of run {runId}</h2>
      <div className="call-inspector">
        <div>
          <label className="small">
            Status{' '}
            <select aria-label="Call status" value={status} onChange={(e) => setStatus(e.target.value as (typeof STATUSES)[number])}>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s || 'all'}
                </option>
              ))}
            </select>
          </label>
          <span className="muted small">
            {' '}
            {total} call{total === 1 ? '' : 's'}
            {total > rows.length ? ` (first ${rows.length})` : ''}
          </span>
          <div className="call-list">
            <TableScroll label="Calls of the run"><table className="grid" data-testid="call-list">
              <tbody>
                {rows.map((r) => (
                  <tr key={r.id} className={chosen?.id === r.id ? 'clickable selected' : 'clickable'} onClick={() => open(r)} data-call-id={r.id}>
                    <td>
                      {r.externalId}
                      <div className="muted small">
                        trial {r.trial}
                        {r.orderIndex ? ` · order ${r.orderIndex}` : ''} · {r.split}
                      </div>
                    </td>
                    <td>
                      <span className={`badge status-${r.status}`}>{r.status}</span>
                      {r.cached && <span className="badge">cached</span>}
                    </td>
                    <td className="num small">{r.costUsd === null ? '' : formatUsd(r.costUsd)}</td>
                  </tr>
                ))}
              </tbody>
            </table></TableScroll>
          </div>
        </div>
        <div className="call-detail" data-testid="call-detail">
          {!chosen && <p className="muted">Choose a call.</p>}
          {chosen && !detail && chosen.split === 'test' && (
            <p className="runs-warning">
              This item is held out (test split). Seeing the judge’s output makes it no longer blind for you.{' '}
              <button onClick={() => load(chosen.id)}>Show output and log exposure</button>
            </p>
          )}
          {detail && <CallView call={detail} />}
        </div>
      </div>
    </section>
  )
}

function CallView({ call }: { call: CallDetail }) {
  return (
    <div>
      <p>
        <span className={`badge status-${call.status}`} data-testid="call-status">
          {call.status}
        </span>{' '}
        {call.externalId} · {call.template} · answer format {call.format} · attempts {call.attempts}
        {call.latencyMs !== null ? ` · ${call.latencyMs} ms` : ''}
        {call.inputTokens !== null ? ` · ${call.inputTokens} in / ${call.outputTokens ?? '?'} out tokens` : ''}
        {call.cached ? ' · from cache' : ''}
      </p>
      {call.error && <p className="form-error">{call.error}</p>}
      <h3>Display order</h3>
      <pre tabIndex={0} role="region" aria-label="Display order">{JSON.stringify(call.display)}</pre>
      {call.prompt.system !== null && (
        <>
          <h3>System instruction</h3>
          <pre data-testid="prompt-system" tabIndex={0} role="region" aria-label="System instruction">{call.prompt.system}</pre>
        </>
      )}
      <h3>User message</h3>
      <pre data-testid="prompt-user" tabIndex={0} role="region" aria-label="User message">{call.prompt.user}</pre>
      <h3>Raw answer</h3>
      <pre data-testid="raw-answer" tabIndex={0} role="region" aria-label="Raw answer">{call.rawAnswer ?? '(none)'}</pre>
      <h3>Parse result</h3>
      <p data-testid="parse-result">{call.parse ? `${call.parse.status}${call.parse.error ? `: ${call.parse.error}` : ''}` : 'no answer to parse'}</p>
      <h3>Judgement (canonical order)</h3>
      <pre data-testid="judgement" tabIndex={0} role="region" aria-label="Judgement (canonical order)">{call.judgement === null ? '(none)' : JSON.stringify(call.judgement, null, 2)}</pre>
    </div>
  )
}
