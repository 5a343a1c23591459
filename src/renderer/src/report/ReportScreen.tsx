import { useEffect, useMemo, useRef, useState } from 'react'
import type { ReportableInstrument } from '../../../shared/contract/report-operations'
import type { EventPayload } from '../../../shared/contract/operations'
import { SPLITS, type Split } from '../../../shared/items/labels'
import { renderReportHtml, reportPlots, colourIn, type Report } from '../../../shared/report'
import { api } from '../api'
import { downloadText } from './export'
import { ReportBody } from './ReportBody'
import { CalibrateForm } from './CalibrateForm'
import { SourceFilter, type JudgeOption } from './SourceFilter'
import './report.css'

type Progress = EventPayload<'report.progress'>
type Load = { state: 'idle' } | { state: 'loading'; progress: Progress | null } | { state: 'done'; report: Report } | { state: 'error'; message: string }

/**
 * The audit: choose an instrument, a split and the judges; summary cards first, then collapsible sections of tables
 * and plots. The report is computed in a worker in main, so the screen shows its progress and can cancel it.
 */
export function ReportScreen() {
  const [instruments, setInstruments] = useState<ReportableInstrument[] | null>(null)
  const [splits, setSplits] = useState<string[]>([])
  const [instrument, setInstrument] = useState<string>('')
  const [split, setSplit] = useState<Split | ''>('')
  const [includeArchived, setIncludeArchived] = useState(false)
  const [selected, setSelected] = useState<ReadonlySet<string> | null>(null)
  const [judgeOptions, setJudgeOptions] = useState<JudgeOption[]>([])
  const [load, setLoad] = useState<Load>({ state: 'idle' })
  // Bumped when a fit is stored, so the report is computed again with it.
  const [fits, setFits] = useState(0)
  // One id per screen: a new request replaces the one still computing, and progress events are matched to it.
  const requestId = useRef(`report-${Math.random().toString(36).slice(2)}`).current

  useEffect(() => {
    api['report.instruments']({}).then(
      (r) => {
        setInstruments(r.instruments)
        setSplits(r.splits)
        setInstrument((current) => current || (r.instruments[0]?.id ?? ''))
      },
      (e: Error) => setLoad({ state: 'error', message: e.message })
    )
  }, [])

  useEffect(
    () =>
      api.on('report.progress', (p) => {
        if (p.requestId === requestId) setLoad((l) => (l.state === 'loading' ? { state: 'loading', progress: p } : l))
      }),
    [requestId]
  )

  // A different instrument or the archived runs bring other judges: the filter starts again from all of them.
  useEffect(() => {
    setSelected(null)
    setJudgeOptions([])
  }, [instrument, includeArchived])

  useEffect(() => {
    if (!instrument) return
    let current = true
    setLoad({ state: 'loading', progress: null })
    const input = {
      instrument,
      ...(split ? { split } : {}),
      ...(selected ? { sources: [...selected] } : {}),
      ...(includeArchived ? { includeArchived: true } : {}),
      requestId
    }
    api['report.build'](input).then(
      (report) => {
        if (!current) return
        setLoad({ state: 'done', report })
        // The filter lists the judges of the unfiltered report; a filtered one keeps the list it had.
        if (!selected) setJudgeOptions(report.sources.filter((s) => s.role === 'judge').map((s) => ({ id: s.id, name: s.name, colour: colourIn(report.sources, s.id, s.role) })))
      },
      (e: Error & { code?: string }) => {
        if (current && e.code !== 'cancelled') setLoad({ state: 'error', message: e.message })
      }
    )
    return () => {
      current = false
    }
  }, [instrument, split, selected, includeArchived, requestId, fits])

  const report = load.state === 'done' ? load.report : null
  // The Calibrate form stays while the report is computed again with a new fit, so its result stays on screen.
  const lastReport = useRef<Report | null>(null)
  if (report) lastReport.current = report
  const calibrateOn = report ?? (lastReport.current?.instrument.id === instrument ? lastReport.current : null)
  const plots = useMemo(() => (report ? reportPlots(report) : []), [report])
  const fileStem = report ? `assay-${report.instrument.id}-${report.scope.split}` : 'assay-report'

  return (
    <section className="report-screen" data-testid="report-screen">
      <header className="report-controls">
        <h1>Audit</h1>
        <label>
          Instrument{' '}
          <select value={instrument} onChange={(e) => setInstrument(e.target.value)} disabled={!instruments?.length}>
            {(instruments ?? []).map((i) => (
              <option key={i.id} value={i.id}>
                {i.title} ({i.id})
              </option>
            ))}
          </select>
        </label>
        <label>
          Split{' '}
          <select value={split} onChange={(e) => setSplit(e.target.value as Split | '')}>
            <option value="">All items</option>
            {SPLITS.filter((s) => splits.includes(s)).map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <SourceFilter options={judgeOptions} selected={selected} onChange={setSelected} />
        <label className="small">
          <input type="checkbox" checked={includeArchived} onChange={(e) => setIncludeArchived(e.target.checked)} /> Archived runs
        </label>
        {report && (
          <span className="report-downloads">
            <button type="button" onClick={() => downloadText(`${fileStem}.json`, JSON.stringify(report, null, 2), 'application/json')}>
              Download JSON
            </button>
            <button type="button" onClick={() => downloadText(`${fileStem}.html`, renderReportHtml(report), 'text/html')}>
              Download HTML report
            </button>
          </span>
        )}
      </header>
      {instruments?.length === 0 && <p className="muted">Nothing to report yet: no instrument has answers, judge calls or labelled items.</p>}
      {load.state === 'loading' && (
        <p className="muted report-progress" role="status">
          {load.progress
            ? `Computing the report: ${load.progress.phase === 'reading' ? 'reading answers' : `${load.progress.phase} (${load.progress.detail})`}… step ${load.progress.step + 1} of ${load.progress.steps}`
            : 'Computing the report…'}{' '}
          <button type="button" onClick={() => void api['report.cancel']({ requestId })}>
            Cancel
          </button>
        </p>
      )}
      {load.state === 'error' && (
        <p role="alert" className="report-error">
          {load.message}
        </p>
      )}
      {calibrateOn && <CalibrateForm key={instrument} report={calibrateOn} onCalibrated={() => setFits((n) => n + 1)} />}
      {report && <ReportBody report={report} plots={plots} fileStem={fileStem} />}
    </section>
  )
}
