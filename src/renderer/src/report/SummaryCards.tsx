import { useMemo, useState } from 'react'
import { SUMMARY_CSS, SUMMARY_SORT_KEYS, summaryCardsHtml, type Report, type SummarySortKey } from '../../../shared/report'

/** The summary cards, the same HTML the exported report carries, sorted by the chosen key. */
export function SummaryCards({ report }: { report: Report }) {
  const [sort, setSort] = useState<SummarySortKey>('report')
  const html = useMemo(() => summaryCardsHtml(report, sort), [report, sort])
  return (
    <section id="summary" className="report-summary" data-testid="report-summary">
      <style>{SUMMARY_CSS}</style>
      <div className="report-summary-head">
        <h2>Summary</h2>
        <label className="small muted">
          Sort judges by{' '}
          <select value={sort} onChange={(e) => setSort(e.target.value as SummarySortKey)} aria-label="Sort judges by">
            {SUMMARY_SORT_KEYS.map(({ key, label }) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {/* Built by a pure function that escapes every text it writes (shared with the exported report). */}
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </section>
  )
}
