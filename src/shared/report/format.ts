import type { ReportInterval } from './schema'

/** How report figures are written in tables (HTML report and report screen alike). */

export const NONE = '—'

/** What the sources table says when there is none (text, HTML and screen alike). */
export const NO_SOURCES = 'No source: no item in scope has a label, an answer or a judge call.'

/** A field no source could be scored on, said in text, HTML and on the screen alike. */
export const NO_COMPARISON = 'No source could be scored on this field against a criterion.'

/** "1 annotator", "5 annotators". */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`

export function fmtNumber(v: number | null | undefined, digits = 3): string {
  if (typeof v !== 'number') return NONE
  return v.toFixed(digits)
}

export function fmtPercent(v: number | null | undefined, digits = 1): string {
  if (typeof v !== 'number') return NONE
  return `${(100 * v).toFixed(digits)}%`
}

export function fmtInterval(ci: ReportInterval | undefined, asPercent: boolean, digits?: number): string {
  return ci ? fmtBounds(ci.ci_low, ci.ci_high, asPercent, digits) : ''
}

/** "[low, high]" as the tables write an interval (percentages to 1 decimal, other figures to 3); '' when undefined. */
export function fmtBounds(low: number | null | undefined, high: number | null | undefined, asPercent = false, digits?: number): string {
  if (typeof low !== 'number' || typeof high !== 'number') return ''
  const f = (v: number) => (asPercent ? fmtPercent(v, digits ?? 1) : fmtNumber(v, digits ?? 3))
  return `[${f(low)}, ${f(high)}]`
}

export function fmtP(p: number | null | undefined): string {
  if (typeof p !== 'number') return NONE
  return p < 0.001 ? p.toExponential(2) : p.toFixed(3)
}

/** A figure as written to `digits` decimals, never "-0.0": a difference that rounds to nothing has no sign. */
function unsigned0(v: number, digits: number): string {
  const s = v.toFixed(digits)
  return Number(s) === 0 ? s.replace('-', '') : s
}

/**
 * A difference of two figures (first − second, after − before), signed; of two proportions in percentage points, so
 * that 86.5% − 89.2% is never read as a relative change.
 */
export function fmtDifference(v: number | null | undefined, percent: boolean): string {
  if (typeof v !== 'number') return NONE
  const s = differenceFigure(v, percent)
  const signed = Number(s) > 0 ? `+${s}` : s
  return percent ? `${signed} pp` : signed
}

/** A difference without its sign or unit: percentage points to 1 decimal, other figures to 3. */
const differenceFigure = (v: number, percent: boolean): string => (percent ? unsigned0(100 * v, 1) : unsigned0(v, 3))

/** A difference's interval, in the difference's own unit (percentage points for proportions); '' when undefined. */
export function fmtDifferenceInterval(low: number | null | undefined, high: number | null | undefined, percent: boolean): string {
  if (typeof low !== 'number' || typeof high !== 'number') return ''
  return `[${differenceFigure(low, percent)}, ${differenceFigure(high, percent)}]${percent ? ' pp' : ''}`
}

/** Which statistics are proportions (written as percentages). */
export const PERCENT_STATISTICS: ReadonlySet<string> = new Set([
  'accuracy',
  'accuracy_of_all',
  'accuracy_ties_dropped',
  'majority_baseline',
  'random_baseline',
  'position_consistency',
  'conflict_rate',
  'mt_bench_consistency',
  'biased_to_first',
  'biased_to_second',
  'error_rate',
  'first_position_preference',
  'fatal_flaw_recall',
  'fatal_flaw_named_recall',
  'win_rate',
  'win_rate_of_judged'
])

/** Column headings of the statistics, as a paper would print them. */
export const STATISTIC_LABELS: Readonly<Record<string, string>> = {
  accuracy: 'Accuracy',
  accuracy_of_all: 'Of all in scope',
  accuracy_ties_dropped: 'Ties dropped',
  majority_baseline: 'Majority baseline',
  random_baseline: 'Random baseline',
  cohen_kappa: "Cohen's κ",
  gwet_ac1: "Gwet's AC1",
  weighted_kappa_linear: 'κ linear',
  weighted_kappa_quadratic: 'κ quadratic',
  krippendorff_alpha_nominal: 'α nominal',
  krippendorff_alpha_ordinal: 'α ordinal',
  krippendorff_alpha_interval: 'α interval',
  krippendorff_alpha_ratio: 'α ratio',
  spearman: 'Spearman ρ',
  kendall_tau_b: 'Kendall τ-b',
  mean_abs_diff: 'Mean |diff|',
  mean_diff: 'Mean diff',
  pearson: 'Pearson r',
  brier: 'Brier',
  log_loss: 'Log loss',
  ece: 'ECE',
  auroc: 'AUROC',
  preference_fairness: 'Preference fairness',
  fleiss_kappa: "Fleiss' κ",
  krippendorff_alpha: "Krippendorff's α"
}

export function statisticLabel(name: string): string {
  return STATISTIC_LABELS[name] ?? name.replace(/_/g, ' ')
}

/** A statistic's name as a card or a sentence writes it: "Cohen's κ", "Krippendorff's α (interval)". */
export function agreementLabel(statistic: string): string {
  return statistic.startsWith('krippendorff_alpha') ? `Krippendorff's α (${statistic.replace('krippendorff_alpha_', '')})` : statisticLabel(statistic)
}

/** The annotators' range behind a human ceiling, "0.471–0.694", or one figure where both ends are written alike. */
/** The versions of the instrument the answers were given under ("version 1", "versions 1, 2"; none: empty). */
export function instrumentVersionsWords(versions: readonly number[]): string {
  if (versions.length === 0) return ''
  return `${versions.length === 1 ? 'version' : 'versions'} ${versions.join(', ')}`
}

export function fmtRange(min: number | null, max: number | null): string {
  if (min === null || max === null) return NONE
  const low = fmtNumber(min)
  const high = fmtNumber(max)
  return low === high ? low : `${low}–${high}`
}

/** How an interval was made, in a word a table or card writes beside it. */
export function intervalMethodName(method: string | null | undefined): string {
  if (!method) return ''
  if (method === 'wilson') return 'Wilson'
  return method.includes('bootstrap') ? 'bootstrap' : method
}

type CardPosition = { n_pairs: number; n_compared: number; consistency: number | null; biased_to_first: number | null; biased_to_second: number | null; preference_fairness: number | null }

/** A card's position figures, each with its own denominator (see POSITION_NOTE). */
export function positionWords(p: CardPosition): string {
  return `consistency of compared ${fmtPercent(p.consistency)} ${positionDenominators(p)}`
}

/** What the card's position consistency is of, and the figures beside it (the HTML card writes the consistency apart). */
export function positionDenominators(p: CardPosition): string {
  return (
    `of ${plural(p.n_compared, 'pair')} read in both orders · ` +
    `of ${plural(p.n_pairs, 'pair')} in both orders, biased to first ${fmtPercent(p.biased_to_first)}, to second ${fmtPercent(p.biased_to_second)} · ` +
    `preference fairness ${fmtNumber(p.preference_fairness)}`
  )
}

/** A card's human ceiling: its value, the annotators' range where they differ, and what it is. */
export function ceilingWords(h: { value: number | null; min: number | null; max: number | null; rule: string; n_annotators: number; n_undefined?: number | undefined; reason?: string | undefined }): string {
  if (h.value === null) return `no human ceiling (${noCeilingWhy(h)})`
  const range = fmtRange(h.min, h.max)
  const undefinedFor = h.n_undefined ? `${h.n_annotators} of ${plural(h.n_annotators + h.n_undefined, 'annotator')} (undefined for ${h.n_undefined})` : plural(h.n_annotators, 'annotator')
  return `human ceiling ${fmtNumber(h.value)}${range.includes('–') ? ` (${range})` : ''} · ${h.rule}, ${undefinedFor}`
}

/**
 * The units a judge's row against the human majority in the ceiling is on: "23 units", or "23 units (accuracy: 28
 * judged)" where the accuracy also counts unreadable answers as wrong.
 */
export function majorityUnitsWords(against: Readonly<Record<string, { n: number } | undefined>>): string {
  const entries = Object.entries(against).filter((e): e is [string, { n: number }] => e[1] !== undefined)
  const n = entries.find(([name]) => name !== 'accuracy')?.[1].n ?? entries[0]?.[1].n ?? 0
  const accuracy = against.accuracy?.n
  return `${plural(n, 'unit')}${accuracy !== undefined && accuracy !== n ? ` (accuracy: ${accuracy} judged)` : ''}`
}

/** Annotators compared with the majority of the others for a ceiling statistic: those it is defined for and the rest. */
export function comparedAnnotators(cited: { n_annotators: number; n_undefined?: number | undefined }): string {
  return plural(cited.n_annotators + (cited.n_undefined ?? 0), 'annotator')
}

/** Under a ceiling figure: the annotators' range, and how many it is undefined for ("range 0.47–0.69; undefined for 1"). */
export function ceilingRangeWords(statistic: string, o: { min: number | null; max: number | null; n_undefined?: number | undefined }): string {
  // In the statistic's own form (a percentage under an accuracy), and one figure where every annotator has it.
  const low = o.min !== null ? fmtStatistic(statistic, o.min) : null
  const high = o.max !== null ? fmtStatistic(statistic, o.max) : null
  const range = low !== null && high !== null ? (low === high ? `range ${low}` : `range ${low}–${high}`) : ''
  const missing = o.n_undefined ? `undefined for ${o.n_undefined}` : ''
  return [range, missing].filter(Boolean).join('; ')
}

/** Under an average over pairs that left some out: "over 2 of 3 pairs", or nothing where it is over them all. */
export function overWords(counted: number | undefined, all: number, unit: string): string {
  return counted !== undefined && counted < all ? `over ${counted} of ${plural(all, unit)}` : ''
}

/** Why a card has no human ceiling to read its agreement against: the ceiling's own reason, or too few annotators. */
export function noCeilingWhy(h: { reason?: string | undefined } | null): string {
  return h?.reason ?? 'no annotator answered this field'
}

/** A count that may hold halves or shares (a tie counts half): whole as it is, else to two decimals. */
export function fmtTally(v: number): string {
  return String(+v.toFixed(2))
}

/** Two judges' right/wrong counts on their shared units: both right / only first / only second / both wrong. */
export function fmtRightWrong(r: { both_correct?: number | undefined; only_first?: number | undefined; only_second?: number | undefined; both_wrong?: number | undefined }): string {
  return `${r.both_correct ?? 0} / ${r.only_first ?? 0} / ${r.only_second ?? 0} / ${r.both_wrong ?? 0}`
}

/** What a fatal-flaw recall is of, and the marked pairs it leaves out: "of 3 judged proposals people marked fatal; …". */
export function fatalFlawDenominator(f: { n: number; n_no_value: number; n_unanswered: number }): string {
  const of = f.n === 0 ? 'no judged proposal people marked fatal' : `of ${plural(f.n, 'judged proposal')} people marked fatal`
  const apart = [
    f.n_no_value ? `${f.n_no_value} without a verdict (display orders or trials split)` : '',
    f.n_unanswered ? `${f.n_unanswered} unanswered` : ''
  ].filter(Boolean)
  return apart.length ? `${of}; not judged: ${apart.join(', ')}` : of
}

export function fmtStatistic(name: string, v: number | null | undefined): string {
  return PERCENT_STATISTICS.has(name) ? fmtPercent(v) : fmtNumber(v)
}

/** Whether a field's rows score a probability against an outcome (Brier, log loss, ECE, AUROC), not as a number. */
export function scoredAgainstOutcome(field: { comparisons: ReadonlyArray<{ outcome?: string | undefined }> }): boolean {
  return field.comparisons.some((c) => c.outcome !== undefined && !c.outcome.startsWith('none'))
}

/** Statistics where less is better (errors and distances): a judge is within people's range at or below its worst. */
export const LOWER_IS_BETTER: ReadonlySet<string> = new Set(['brier', 'log_loss', 'ece', 'ece_quantile', 'mean_abs_diff'])

/** The statistics of a field comparison, in table order, by the field's level and what the row carries. */
export function comparisonColumns(level: string, hasOutcome: boolean): string[] {
  switch (level) {
    case 'nominal':
      return ['accuracy', 'accuracy_of_all', 'majority_baseline', 'random_baseline', 'cohen_kappa', 'gwet_ac1', 'krippendorff_alpha_nominal']
    case 'ordinal':
      return ['accuracy', 'accuracy_of_all', 'majority_baseline', 'weighted_kappa_linear', 'weighted_kappa_quadratic', 'cohen_kappa', 'krippendorff_alpha_ordinal', 'spearman', 'kendall_tau_b']
    case 'ratio':
      return ['mean_abs_diff', 'mean_diff', 'pearson', 'krippendorff_alpha_ratio']
    case 'probability':
      return hasOutcome ? ['brier', 'log_loss', 'ece', 'auroc'] : ['mean_abs_diff', 'mean_diff', 'pearson', 'krippendorff_alpha_interval']
    default:
      return ['mean_abs_diff', 'mean_diff', 'pearson', 'krippendorff_alpha_interval']
  }
}

/** The interval shown under a statistic in tables: the cluster bootstrap for accuracy, else the statistic's own. */
export function intervalKeyOf(statistic: string): string {
  return statistic === 'accuracy' ? 'accuracy_bootstrap' : statistic
}

/**
 * What a field table's counts alone do not say, one line per comparison: units a human majority left out because its
 * annotators split evenly (the ties policy), and annotators scored against the majority of the others.
 */
export function comparisonNotes(
  comparisons: ReadonlyArray<{ source: string; criterion: string; field?: string; n_tied_votes?: number | undefined; n_ties?: number | undefined; criterion_form?: string | undefined }>,
  name: (id: string) => string
): string[] {
  const notes: string[] = []
  for (const c of comparisons) {
    const who = `${name(c.source)} vs ${name(c.criterion)}`
    if ((c.n_tied_votes ?? 0) > 0) notes.push(`${who}: ${c.n_tied_votes} unit(s) left out, on which its annotators split evenly (ties policy); not counted in its denominators`)
    // A field row's ties are a source's own tie verdicts, which the table has no column for (the pairwise table has).
    if (c.field !== undefined && (c.n_ties ?? 0) > 0) notes.push(`${who}: ${c.n_ties} unit(s) answered with a tie, its own verdict: judged and not correct (ties policy), as in the pairwise table`)
    if (c.criterion_form === 'majority_of_others') notes.push(`${who}: against the majority of the other annotators, never one it is part of`)
  }
  return notes
}

/**
 * Why a table's figures are "—", for the plain text (the HTML and the screen give each on its cell): one line per
 * reason and set of rows, naming the statistics and the rows, so a dash is never left unexplained and a reason shared
 * by several statistics is said once. Rows with no unit to compare (n = 0) are named once, not once per statistic.
 */
export function undefinedNotes(
  comparisons: ReadonlyArray<{ source: string; criterion: string; n?: number | undefined; reasons: Readonly<Record<string, string>> }>,
  columns: readonly string[],
  valueOf: (row: number, column: string) => number | null | undefined,
  name: (id: string) => string
): string[] {
  const empty: string[] = []
  const byRow = comparisons.map((c, i) => {
    const who = `${name(c.source)} vs ${name(c.criterion)}`
    const undefinedHere = columns.filter((column) => valueOf(i, column) === null && c.reasons[column])
    // "Every figure" only where none is defined: an accuracy counts unreadable answers, so it can stand on n = 0.
    if (c.n === 0 && undefinedHere.length > 0 && columns.every((column) => valueOf(i, column) === null || valueOf(i, column) === undefined)) {
      empty.push(who)
      return { who, reasons: [] as Array<[string, string]> }
    }
    return { who, reasons: undefinedHere.map((column) => [column, c.reasons[column] as string] as [string, string]) }
  })
  return [...(empty.length ? [`— every figure: no unit both the source and the criterion have a value for (${empty.join('; ')})`] : []), ...groupedNotes(byRow)]
}

/** A row of groupedNotes whose every figure is undefined for one cause names this statistic. */
export const EVERY_FIGURE = '*'

/** Notes grouped by reason and the rows it applies to: "— Spearman ρ, Kendall τ-b: <reason> (row; row)". */
export function groupedNotes(rows: ReadonlyArray<{ who: string; reasons: ReadonlyArray<readonly [string, string]> }>): string[] {
  // reason → statistic → rows
  const byReason = new Map<string, Map<string, string[]>>()
  for (const { who, reasons } of rows) {
    for (const [statistic, reason] of reasons) {
      const byStatistic = byReason.get(reason) ?? new Map<string, string[]>()
      byStatistic.set(statistic, [...(byStatistic.get(statistic) ?? []), who])
      byReason.set(reason, byStatistic)
    }
  }
  const notes: string[] = []
  for (const [reason, byStatistic] of byReason) {
    // Statistics undefined on the same rows for the same reason share one line.
    const byRows = new Map<string, string[]>()
    for (const [statistic, who] of byStatistic) byRows.set(who.join('; '), [...(byRows.get(who.join('; ')) ?? []), statistic === EVERY_FIGURE ? 'every figure' : statisticLabel(statistic)])
    for (const [who, statistics] of byRows) {
      const named = statistics.length === 1 && reason.startsWith(statistics[0] as string) ? reason : `${statistics.join(', ')}: ${reason}`
      notes.push(`— ${named} (${who})`)
    }
  }
  return notes
}

/**
 * The human ceiling's "all annotators at once" line, for text, HTML and screen alike: Fleiss' κ and Gwet's AC1 where
 * the field has them, Krippendorff's α at every level computed, then how many annotators and items.
 */
export function allAnnotatorsWords(
  h: { fleiss_kappa?: number | null | undefined; gwet_ac1?: number | null | undefined; n_items: number; reasons?: Readonly<Record<string, string>> | undefined },
  level: string,
  annotators: number
): string {
  const row = h as unknown as Record<string, number | null | undefined>
  // A figure that is undefined says why beside its dash (here there is no cell to carry it).
  const figure = (label: string, key: string) => `${label} ${fmtNumber(row[key])}${row[key] === null && h.reasons?.[key] ? ` (${h.reasons[key]})` : ''}`
  const alphas = ['nominal', 'ordinal', 'interval', 'ratio']
    .filter((l) => row[`krippendorff_alpha_${l}`] !== undefined)
    .map((l) => figure(`Krippendorff's α (${l})`, `krippendorff_alpha_${l}`))
  if (alphas.length === 0 && row.krippendorff_alpha !== undefined) alphas.push(figure(`Krippendorff's α (${level})`, 'krippendorff_alpha'))
  return [
    h.fleiss_kappa !== undefined ? figure("Fleiss' κ", 'fleiss_kappa') : '',
    h.gwet_ac1 !== undefined ? figure("Gwet's AC1", 'gwet_ac1') : '',
    ...alphas,
    `${plural(annotators, 'annotator')}, ${plural(h.n_items, 'item')}`
  ]
    .filter(Boolean)
    .join(' · ')
}

/**
 * A per-subset column's heading: "human better" for a label, "set: cohort-1", "label source: citations", and for the
 * `probe` tag an imported pair carries, "imported probe tag: formula-error" (never mistaken for the probes the probes
 * section counts, made in the project and checked).
 */
export function subsetHeading(by: string, value: string): string {
  if (by === 'label') return `${value} better`
  if (by === 'probe') return `imported probe tag: ${value}`
  return `${by.replace(/_/g, ' ')}: ${value}`
}

/** The commonest label a majority baseline always answers; where several tie, any of them ("0 or 2", never "0/2"). */
export function alwaysLabel(labels: ReadonlyArray<string | number | boolean>): string {
  return labels.length ? labels.map(String).join(' or ') : NONE
}

/** An interval's method and level, for the hover of the cell it stands in ("cluster bootstrap (percentile), 95%"). */
export function intervalTitle(ci: { method: string; level: number }): string {
  return `${ci.method} interval, ${Math.round(ci.level * 100)}%`
}
