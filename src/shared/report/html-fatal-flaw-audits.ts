import type { JudgeFlawAuditRow } from './fatal-flaw-audits'
import { JUDGE_FLAW_AUDIT_COLUMNS, JUDGE_FLAW_AUDIT_NOTE } from './definitions'
import { fmtPercent, NONE } from './format'
import { num, table } from './html-parts'
import { escapeXml as esc } from './plots/svg'


/** The judges' own flaw audits, as a table under the fatal-flaw recall of the verdicts. */
export function judgeFlawAuditsHtml(rows: readonly JudgeFlawAuditRow[] | undefined): string {
  if (!rows || rows.length === 0) return ''
  const body = rows.map((r) => [
    // A flaw-audit run is not a source of this report: named by its own name.
    `<td data-source="${esc(r.source)}">${esc(r.name)}</td>`,
    num(r.n_fatal),
    num(r.n_named),
    r.recall === null
      ? `<td class="num undefined" title="no proposal people marked fatal was audited">${NONE}</td>`
      : `<td class="num">${esc(fmtPercent(r.recall))}${r.recall_ci ? `<span class="ci">[${esc(fmtPercent(r.recall_ci[0]))}, ${esc(fmtPercent(r.recall_ci[1]))}]</span>` : ''}</td>`,
    num(r.n_unparseable),
    num(r.n_unanswered),
    num(r.n_other_side_fatal),
    num(r.n_audited)
  ])
  return `<h4>Judges' own flaw audits beside the experts'</h4><p class="muted small">${esc(JUDGE_FLAW_AUDIT_NOTE)}.</p>${table([...JUDGE_FLAW_AUDIT_COLUMNS], body, new Set([1, 2, 3, 4, 5, 6, 7]))}`
}
