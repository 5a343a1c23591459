import { fmtPercent } from './format'
import { MAX_UNDEFINED_RESAMPLE_SHARE } from './source-flags'
import type { Report, ReportInterval } from './schema'

// Words the report's tables say alike in text, HTML and on the screen: of sources, label terms and resamples.

/**
 * A bootstrap interval's undefined resamples, with a warning where they are more than the share above which the
 * cards call an interval unreliable: "1463 of 2000 (73.2%): interval unreliable".
 */
export function undefinedResamplesWords(undefinedResamples: number, resamples: number): string {
  if (undefinedResamples === 0) return `0 of ${resamples}`
  if (undefinedResamples >= resamples) return `${undefinedResamples} of ${resamples}: no interval`
  const share = undefinedResamples / resamples
  return `${undefinedResamples} of ${resamples} (${fmtPercent(share)})${share > MAX_UNDEFINED_RESAMPLE_SHARE ? ': interval unreliable' : ''}`
}

/**
 * In which terms the pairwise section states its labels, said alike in text, HTML and on the screen: the report's
 * terms, and, where rows count their majority baseline in their own judged items' terms (a row over human-vs-AI pairs
 * only, beside probes that have no origin), which rows and in which terms.
 */
export function labelTermsWords(pairwise: { label_terms: 'origin' | 'side'; rows: ReadonlyArray<{ baseline_terms?: 'origin' | 'side' | undefined }> }): string {
  const words = (terms: 'origin' | 'side') => (terms === 'origin' ? 'human/AI terms (which origin wrote the better proposal)' : 'side terms (a/b, canonical order)')
  const own = pairwise.rows.filter((r) => r.baseline_terms !== undefined && r.baseline_terms !== pairwise.label_terms)
  const base = `Labels are stated in ${words(pairwise.label_terms)}`
  if (own.length === 0) return base
  const other = own[0]?.baseline_terms as 'origin' | 'side'
  return `${base}; the majority baseline of ${own.length === pairwise.rows.length ? 'every row' : `${own.length} of ${pairwise.rows.length} rows`} is stated in ${words(other)}, the terms of that row's own judged pairs (${other === 'origin' ? 'each sets a human proposal against an AI one' : 'not every one sets a human proposal against an AI one'})`
}

type SourceFacts = { too_few_items: boolean; unreliable_interval: boolean; undefined_resample_share: number | null; detail: Record<string, string | number | boolean | null> }

/** A source's flags, as the Sources table gives them in text, HTML and on the screen ("" when none). */
export function sourceFlagsWords(s: SourceFacts): string {
  return [s.too_few_items ? 'too few items' : '', s.unreliable_interval ? `unreliable interval (${fmtPercent(s.undefined_resample_share)} undefined)` : ''].filter(Boolean).join(', ')
}

/** A source's facts (template, trials, both orders, run status, archived, method…), as the Sources table gives them. */
export function sourceDetailWords(s: SourceFacts): string {
  return Object.entries(s.detail)
    .filter(([k, v]) => v !== null && v !== '' && !(k === 'n_invalid_stored' && v === 0))
    .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${String(v)}`)
    .join(' · ')
}

/** The chance level of each published form of agreement, said once above its table. */
export function publishedChanceWords(chance: { mt_bench_s1: number; mt_bench_s2: number; alpaca_eval_agreement: number; judgebench_accuracy: number }): string {
  return `Chance: MT-Bench S1 ${fmtPercent(chance.mt_bench_s1)}, S2 ${fmtPercent(chance.mt_bench_s2)}, AlpacaEval ${fmtPercent(chance.alpaca_eval_agreement)}, JudgeBench ${fmtPercent(chance.judgebench_accuracy)}`
}

/** Why a judge-against-judge row's McNemar cell is what it is, for its hover. */
export function mcnemarWords(r: { statistic: string; mcnemar_p?: number | null | undefined; reasons: Record<string, string> }): string {
  if (r.statistic !== 'accuracy') return 'McNemar\'s test compares right and wrong decisions: this row compares another statistic, whose difference has its paired-bootstrap interval'
  if (r.mcnemar_p === null || r.mcnemar_p === undefined) return r.reasons.mcnemar_p ?? 'no pair of decisions to test'
  return 'exact binomial, two-sided'
}

/** Why a judge-against-judge row has no right/wrong split. */
export const NO_RIGHT_WRONG = 'right and wrong are counted for accuracy rows only'

/** A field as the report's sections head it: its label, else its name. */
export function fieldLabelOf(report: { fields: ReadonlyArray<{ name: string; label: string }> }, field: string): string {
  return report.fields.find((f) => f.name === field)?.label ?? field
}

/**
 * What a fit's card says of itself beside figures read like every other card's: that it is scored on its eval split
 * only, where the human ceiling beside it is over every item in scope; and that it was fitted against another
 * criterion than the one every card is scored against (its figures against that one are in its section).
 */
export function fitCardNotes(
  report: Pick<Report, 'calibration'> & { scope: { split: string } },
  card: { source: string; criterion: string | null; criterion_name?: string | null | undefined },
  name: (id: string) => string
): string[] {
  const fit = report.calibration?.find((f) => f.source === card.source)
  if (!fit) return []
  const notes: string[] = []
  if (report.scope.split !== fit.eval_split) notes.push(`Scored on the ${fit.eval_split} split only, where it is held out; the human ceiling beside it is over every item in scope`)
  if (fit.n_unscored_eval_units) {
    notes.push(`Its row under Recalibrated judges compares ${fit.n_eval_units} units: ${fit.n_unscored_eval_units} more have no score from the raw judge to map, where this card counts an unreadable answer as judged and wrong`)
  }
  if (fit.criterion !== card.criterion) notes.push(`Fitted against ${name(fit.criterion)}; scored here against ${card.criterion_name ?? 'no criterion'}, as every card. Its figures against ${name(fit.criterion)} are under Recalibrated judges`)
  return notes
}

/** Why a published-agreement row has no JudgeBench figure: the row's own reason, or that it was never asked in both orders. */
export function judgeBenchWhy(p: { n_judgebench?: number | undefined; reasons: Record<string, string> }): string | undefined {
  return p.reasons.judgebench_accuracy ?? (p.n_judgebench === undefined ? 'JudgeBench scores judges asked in both display orders only' : undefined)
}

/** A Bradley–Terry strength's interval as a table cell reads one: refit on each resample, at the report's level. */
export function strengthInterval(b: { ci_low: number | null; ci_high: number | null }, level: number): ReportInterval {
  return { method: 'cluster bootstrap (percentile)', level, ci_low: b.ci_low, ci_high: b.ci_high }
}
