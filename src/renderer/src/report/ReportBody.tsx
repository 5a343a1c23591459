import { useState, type ReactNode } from 'react'
import { fieldLabelOf, instrumentVersionsWords, labelTermsWords, methodsItems, PAIRWISE_COUNTS, SUBSETS_NOTE, type Report, type ReportPlot } from '../../../shared/report'
import { PlotFigure } from './PlotFigure'
import { JudgeVsJudgeTable } from './JudgeVsJudgeTable'
import { CeilingTable, FatalFlawTable, FieldTable, PairwiseTable, PositionTable, SourcesTable, SubsetTable, Warnings } from './ReportTables'
import { PublishedTable, SystemsTable } from './SystemsTables'
import { SummaryCards } from './SummaryCards'
import { CalibrationTable, EstimatesTable } from './CalibrationTables'
import { ProbesTables } from './ProbesTables'
import { FlawMatchingTable, IdeaOriginalityTable, JudgeFlawAuditsTable } from './JudgeFlawAndIdeaTables'
import { sideFrameNote } from '../../../shared/report/side-frame'

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

interface Part {
  id: string
  title: string
  note?: string
  body: ReactNode
}

/**
 * The report under its controls: the summary cards, then a table of contents and one collapsible section per part.
 * Sections start closed, so the page opens on the cards; a contents link opens the section it points to.
 */
export function ReportBody({ report, plots, fileStem }: { report: Report; plots: readonly ReportPlot[]; fileStem: string }) {
  const names = new Map(report.sources.map((s) => [s.id, s.name]))
  const name = (id: string) => names.get(id) ?? id
  const b = report.settings.bootstrap
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set())
  const parts: Part[] = [
    { id: 'warnings', title: 'Warnings', note: String(report.warnings.length), body: <Warnings report={report} /> },
    { id: 'sources', title: 'Sources and denominators', body: <SourcesTable report={report} /> }
  ]
  const pairwise = report.pairwise
  if (pairwise) {
    parts.push({
      id: 'pairwise',
      title: 'Pairwise verdicts',
      body: (
        <>
          <p className="muted small">
            Counts {pairwise.unit}, unlike the field tables, which count units. {PAIRWISE_COUNTS.charAt(0).toUpperCase() + PAIRWISE_COUNTS.slice(1)}. {labelTermsWords(pairwise)}.
          </p>
          <PairwiseTable report={report} name={name} />
          <Plots plots={plots.filter((p) => p.section === 'pairwise' && p.kind === 'accuracy')} fileStem={fileStem} />
          <h3>Accuracy per subset</h3>
          <p className="muted small">{SUBSETS_NOTE}.</p>
          <SubsetTable report={report} name={name} />
          <Plots plots={plots.filter((p) => p.section === 'pairwise' && p.kind === 'subsets')} fileStem={fileStem} />
          {pairwise.position.length > 0 && <h3>Position bias</h3>}
          <PositionTable report={report} />
          <Plots plots={plots.filter((p) => p.kind === 'position')} fileStem={fileStem} />
          {pairwise.systems.length > 0 && <h3>Ideation systems</h3>}
          <SystemsTable report={report} />
          {pairwise.published_agreement.length > 0 && <h3>Agreement in published forms</h3>}
          <PublishedTable report={report} name={name} />
          {pairwise.fatal_flaws.length > 0 && <h3>Fatal-flaw recall</h3>}
          <FatalFlawTable report={report} />
          <JudgeFlawAuditsTable report={report} />
        </>
      )
    })
  }
  for (const f of report.fields) {
    parts.push({
      id: `field-${f.name}`,
      title: f.label,
      note: `${f.name} · ${f.level}${f.categories ? ` · declared scale: ${f.categories.map(String).join(', ')}${sideFrameNote(f.categories)}` : ''}`,
      body: (
        <>
          <FieldTable report={report} field={f} name={name} />
          <Plots plots={plots.filter((p) => p.section === f.name)} fileStem={fileStem} />
        </>
      )
    })
  }
  if (report.ceiling.length > 0) {
    parts.push({
      id: 'ceiling',
      title: 'Human ceiling',
      body: report.ceiling.map((c) => (
        <section key={c.field}>
          <h3>{fieldLabelOf(report, c.field)}</h3>
          <CeilingTable report={report} ceiling={c} />
        </section>
      ))
    })
  }
  if (report.judge_vs_judge.length > 0) parts.push({ id: 'judge-vs-judge', title: 'Judge against judge', body: <JudgeVsJudgeTable report={report} name={name} /> })
  if (report.calibration?.length) parts.push({ id: 'calibration', title: 'Recalibrated judges', note: String(report.calibration.length), body: <CalibrationTable report={report} name={name} /> })
  if (report.estimates?.rows.length) parts.push({ id: 'estimates', title: 'Estimates corrected for judge error', body: <EstimatesTable report={report} name={name} /> })
  if (report.idea_originality) parts.push({ id: 'idea-originality', title: 'Originality of chosen and excluded ideas', body: <IdeaOriginalityTable report={report} /> })
  if (report.flaw_matching) parts.push({ id: 'flaw-matching', title: 'Judges’ flaw audits against the experts’', body: <FlawMatchingTable report={report} /> })
  if (report.probes) parts.push({ id: 'probes', title: 'Probes', note: `${report.probes.n_verified} verified`, body: <ProbesTables report={report} /> })
  // How every figure above is counted, as the exported report's Methods section says it.
  parts.push({
    id: 'methods',
    title: 'Methods',
    body: (
      <ul className="small report-methods">
        {methodsItems(report).map((m) => (
          <li key={m.topic}>
            <strong>{m.topic}</strong>: {m.text}.
          </li>
        ))}
      </ul>
    )
  })

  const toggle = (id: string, isOpen: boolean) =>
    setOpen((prev) => {
      const next = new Set(prev)
      if (isOpen) next.add(id)
      else next.delete(id)
      return next
    })
  const settings = report.settings as Report['settings'] & { ties_policy?: string }

  return (
    <div className="report-body">
      <p className="muted small">
        {report.instrument.title}
        {report.instrument.versions.length ? ` (${instrumentVersionsWords(report.instrument.versions)})` : ''} · split {report.scope.split} · {report.scope.n_items} items · criteria {report.criteria.map(name).join(', ') || 'none'} ·{' '}
        {Math.round(report.settings.level * 100)}% intervals, {b.resamples} cluster-bootstrap resamples over items (seed {b.seed})
      </p>
      {settings.ties_policy && <p className="muted small">Ties: {settings.ties_policy}</p>}
      <SummaryCards report={report} />
      <nav className="report-contents" aria-label="Contents">
        <strong>Contents</strong>
        <ol>
          {parts.map((p) => (
            <li key={p.id}>
              <a href={`#${p.id}`} onClick={() => toggle(p.id, true)}>
                {p.title}
              </a>
            </li>
          ))}
        </ol>
        <span className="report-contents-actions">
          <button type="button" onClick={() => setOpen(new Set(parts.map((p) => p.id)))}>
            Expand all
          </button>
          <button type="button" onClick={() => setOpen(new Set())}>
            Collapse all
          </button>
        </span>
      </nav>
      {parts.map((p) => (
        <details key={p.id} id={p.id} className="report-section" open={open.has(p.id)} onToggle={(e) => toggle(p.id, (e.currentTarget as HTMLDetailsElement).open)}>
          <summary>
            <h2>
              {p.title} {p.note && <span className="muted small">{p.note}</span>}
            </h2>
          </summary>
          {p.body}
        </details>
      ))}
    </div>
  )
}
