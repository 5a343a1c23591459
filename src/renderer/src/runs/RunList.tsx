import { runStatusShown, type RunListEntry } from '../../../shared/contract/run-operations'
import { costText } from '../../../shared/cost-text'
import { api } from '../api'
import { useWorkbench } from '../workbench-state'
import { formatDuration, formatUsd } from './format'
import { TableScroll } from '../components/TableScroll'

export interface LiveProgress {
  done: number
  failed: number
  total: number
  costUsd: number
  etaMs: number | null
}

/** Every run with its counts; live progress for the ones executing; cancel, resume, archive and restore. */
export function RunList({
  runs,
  live,
  selected,
  onSelect,
  onChange,
  showArchived,
  onShowArchived
}: {
  runs: RunListEntry[]
  live: ReadonlyMap<number, LiveProgress>
  selected: number | null
  onSelect: (id: number) => void
  onChange: () => void
  showArchived: boolean
  onShowArchived: (show: boolean) => void
}) {
  const setError = useWorkbench((s) => s.setError)
  const act = (p: Promise<unknown>) => p.then(onChange, (e: Error) => setError(e.message))

  return (
    <section className="runs-panel" aria-label="Runs">
      <div className="runs-head">
        <h2>Runs</h2>
        <label className="small">
          <input type="checkbox" checked={showArchived} onChange={(e) => onShowArchived(e.target.checked)} /> Show archived
        </label>
      </div>
      <TableScroll label="Runs"><table className="grid" data-testid="run-list">
        <thead>
          <tr>
            <th>#</th>
            <th>Instrument</th>
            <th>Judge</th>
            <th>Status</th>
            <th>Progress</th>
            <th className="num">Failed</th>
            <th className="num">Cost</th>
            <th>ETA</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => {
            const p = live.get(r.id)
            const done = p ? p.done : r.counts.total - r.counts.pending
            const total = p ? p.total : r.counts.total
            const failed = p ? p.failed : r.counts.failed
            const shown = runStatusShown(r)
            const runFailed = r.status === 'failed'
            const answered = Math.max(0, done - failed)
            const unreadable = Math.min(answered, r.counts.unparseable)
            return (
              <tr
                key={r.id}
                className={`clickable${selected === r.id ? ' selected' : ''}${r.archived || r.judgeArchived ? ' archived' : ''}${runFailed || shown.status === 'failed' ? ' run-failed' : ''}`}
                onClick={() => onSelect(r.id)}
                data-run-id={r.id}
                data-status={shown.status}
                data-archived={r.archived || r.judgeArchived ? 'true' : undefined}
              >
                <td>{r.id}</td>
                <td>
                  {r.instrument}
                  <div className="muted small">
                    {r.template} · seed {r.seed}
                    {r.trials > 1 ? ` · ${r.trials} trials` : ''}
                    {r.bothOrders ? ' · both orders' : ''}
                    {r.batch ? ' · batch' : ''}
                  </div>
                </td>
                <td>
                  {r.judge.name}
                  <div className="muted small">{r.judge.company}</div>
                </td>
                <td>
                  <span className={`badge status-${shown.status.replace(' ', '-')}`} data-testid={`run-status-${r.id}`} title={shown.why ?? undefined}>
                    {shown.status}
                  </span>
                  {shown.why && shown.status !== 'interrupted' && (
                    <div className="run-failure" data-testid={`run-status-why-${r.id}`}>
                      {shown.why}
                    </div>
                  )}
                  {(r.archived || r.judgeArchived) && <span className="badge runs-archived">{r.archived ? 'archived' : 'judge archived'}</span>}
                  {runFailed ? (
                    <div className="run-failure" data-testid={`run-failure-${r.id}`}>
                      <strong>Stopped:</strong> {r.lastError ?? 'the run could not go on'} · {failed} failed, {r.counts.pending} not sent
                    </div>
                  ) : (
                    r.lastError && (
                      <div className="run-failure" data-testid={`run-failure-${r.id}`}>
                        {failed} failed: {r.lastError}
                      </div>
                    )
                  )}
                </td>
                <td>
                  {/* Readable answers, unreadable ones and failures apart: a run of unreadable answers does not look done. */}
                  <span className="runs-bar" title={`${answered} answered (${unreadable} unreadable), ${failed} failed, of ${total}`}>
                    <span style={{ width: `${total ? (100 * (answered - unreadable)) / total : 0}%` }} />
                    <span className="unreadable" data-testid={`run-unreadable-${r.id}`} style={{ width: `${total ? (100 * unreadable) / total : 0}%` }} />
                    <span className="failed" style={{ width: `${total ? (100 * failed) / total : 0}%` }} />
                  </span>
                  <span className="small" data-testid={`run-progress-${r.id}`}>
                    {done}/{total}
                  </span>
                  <div className="muted small">
                    {r.counts.ok} ok · {r.counts.unparseable} unparseable · {r.counts.cached} cached
                  </div>
                </td>
                <td className={`num${failed ? ' run-failed-count' : ''}`}>{failed}</td>
                <td className="num">{p && r.counts.unpriced === 0 ? formatUsd(p.costUsd) : costText(p ? p.costUsd : r.counts.costUsd, r.counts.unpriced)}</td>
                <td>{r.active && p ? formatDuration(p.etaMs) : '—'}</td>
                <td onClick={(e) => e.stopPropagation()}>
                  {r.active ? (
                    <button onClick={() => void act(api['runs.cancel']({ runId: r.id }))}>Cancel</button>
                  ) : r.counts.pending > 0 || r.counts.failed > 0 ? (
                    <button onClick={() => void act(api['runs.resume']({ runId: r.id }))}>{r.counts.failed > 0 && r.counts.pending === 0 ? 'Retry failed' : 'Resume'}</button>
                  ) : null}
                  {!r.active &&
                    (r.archived ? (
                      <button onClick={() => void act(api['runs.restore']({ runId: r.id }))}>Restore</button>
                    ) : (
                      <button title="Keep the run in the file but leave it out of reports and lists" onClick={() => void act(api['runs.archive']({ runId: r.id }))}>
                        Archive
                      </button>
                    ))}
                </td>
              </tr>
            )
          })}
          {runs.length === 0 && (
            <tr>
              <td colSpan={9} className="muted">
                {showArchived ? 'No runs yet.' : 'No runs (archived runs are shown with “Show archived”).'}
              </td>
            </tr>
          )}
        </tbody>
      </table></TableScroll>
    </section>
  )
}
