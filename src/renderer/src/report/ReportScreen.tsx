import { useEffect, useMemo, useState } from 'react'
import type { AuditableInstrument } from '../../../shared/contract/audit-operations'
import { SPLITS, type Split } from '../../../shared/items/kinds'
import { renderReportHtml, reportPlots, type Report, type ReportPlot } from '../../../shared/report'
import { api } from '../api'
import { downloadText } from './export'
import { PlotFigure } from './PlotFigure'
import { CeilingTable, FatalFlawTable, FieldTable, JudgeVsJudgeTable, PairwiseTable, PositionTable, SourcesTable, SystemsTable, Warnings } from './ReportTables'
import './report.css'

type Load = { state: 'idle' } | { state: 'loading' } | { state: 'done'; report: Report } | { state: 'error'; message: string }

/** The audit: choose an instrument and a split; tables and plots of every source against every criterion. */
export function ReportScreen() {
  const [instruments, setInstruments] = useState<AuditableInstrument[] | null>(null)
  const [splits, setSplits] = useState<string[]>([])
  const [instrument, setInstrument] = useState<string>('')
  const [split, setSplit] = useState<Split | ''>('')
  const [load, setLoad] = useState<Load>({ state: 'idle' })

  useEffect(() => {
    api['audit.instruments']({}).then(
      (r) => {
        setInstruments(r.instruments)
        setSplits(r.splits)
        setInstrument((current) => current || (r.instruments[0]?.id ?? ''))
      },
      (e: Error) => setLoad({ state: 'error', message: e.message })
    )
  }, [])

  useEffect(() => {
    if (!instrument) return
    let current = true
    setLoad({ state: 'loading' })
    api['audit.report']({ instrument, ...(split ? { split } : {}) }).then(
      (report) => current && setLoad({ state: 'done', report }),
      (e: Error) => current && setLoad({ state: 'error', message: e.message })
    )
    return () => {
      current = false
    }
  }, [instrument, split])

  const report = load.state === 'done' ? load.report : null
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
      {load.state === 'loading' && <p className="muted" role="status">Computing the report (2,000 bootstrap resamples)…</p>}
      {load.state === 'error' && (
        <p role="alert" className="report-error">
          {load.message}
        </p>
      )}
      {report && <ReportBody report={report} plots={plots} fileStem={fileStem} />}
    </section>
  )
}

function Plots({ plots, fileStem }: { plots: readonly ReportPlot[]; fileStem: string }) {
  if (plots.length === 0) return null
  return (
    <div className="report-plots">
      {plots.map((p) => (
        <PlotFigure key={p.id} plot={p} fileStem={fileStem} />
      ))}
    </div>
  )
}

function ReportBody({ report, plots, fileStem }: { report: Report; plots: readonly ReportPlot[]; fileStem: string }) {
  const names = new Map(report.sources.map((s) => [s.id, s.name]))
  const name = (id: string) => names.get(id) ?? id
  const b = report.settings.bootstrap
  return (
    <div className="report-body">
      <p className="muted small">
        {report.instrument.title} · split {report.scope.split} · {report.scope.n_items} items · criteria {report.criteria.map(name).join(', ') || 'none'} ·{' '}
        {Math.round(report.settings.level * 100)}% intervals, {b.resamples} cluster-bootstrap resamples over items (seed {b.seed})
      </p>
      <h2>Warnings</h2>
      <Warnings report={report} />
      <h2>Sources and denominators</h2>
      <SourcesTable report={report} />
      {report.pairwise && (
        <>
          <h2>Pairwise verdicts</h2>
          <p className="muted small">
            Accuracy = correct / judged (an unparseable answer counts as wrong; failed calls are listed and left out); &quot;of all in scope&quot; counts them as not
            correct. Labels in {report.pairwise.label_terms === 'origin' ? 'human/AI' : 'a/b'} terms.
          </p>
          <PairwiseTable pairwise={report.pairwise} name={name} />
          <Plots plots={plots.filter((p) => p.section === 'pairwise' && p.kind !== 'position')} fileStem={fileStem} />
          {report.pairwise.position.length > 0 && <h3>Position bias</h3>}
          <PositionTable pairwise={report.pairwise} name={name} />
          <Plots plots={plots.filter((p) => p.kind === 'position')} fileStem={fileStem} />
          {report.pairwise.systems.length > 0 && <h3>Ideation systems</h3>}
          <SystemsTable pairwise={report.pairwise} name={name} />
          {report.pairwise.fatal_flaws.length > 0 && <h3>Fatal-flaw recall</h3>}
          <FatalFlawTable pairwise={report.pairwise} name={name} />
        </>
      )}
      {report.fields.map((f) => (
        <section key={f.name} className="report-field">
          <h2>
            {f.label} <span className="muted small">{f.name} · {f.level}</span>
          </h2>
          <FieldTable field={f} name={name} />
          <Plots plots={plots.filter((p) => p.section === f.name)} fileStem={fileStem} />
        </section>
      ))}
      {report.ceiling.length > 0 && (
        <>
          <h2>Human ceiling</h2>
          {report.ceiling.map((c) => (
            <section key={c.field}>
              <h3>{c.field}</h3>
              <CeilingTable ceiling={c} name={name} />
            </section>
          ))}
        </>
      )}
      {report.judge_vs_judge.length > 0 && (
        <>
          <h2>Judge against judge</h2>
          <JudgeVsJudgeTable report={report} name={name} />
        </>
      )}
    </div>
  )
}
