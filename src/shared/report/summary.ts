import { largestShare, MAX_UNDEFINED_RESAMPLE_SHARE } from './source-flags'
import type { Report, ReportComparison, ReportInterval, ReportPairwiseRow } from './schema'
import { SUMMARY_VERDICTS, type ReportSummaryCard } from './summary-schema'
import { accuracyDefinition, agreementDefinition, HUMAN_CEILING_RULE, notJudged, type WithoutValue } from './definitions'
import { alwaysLabel, agreementLabel, fmtNumber, fmtRange, LOWER_IS_BETTER, noCeilingWhy, scoredAgainstOutcome } from './format'

/**
 * The summary cards: one per judge source and field, each made of figures already in the report's tables (the
 * card repeats them; it never computes its own), with the flags and a plain-language verdict.
 */

type Verdict = (typeof SUMMARY_VERDICTS)[number]
type Figure = Omit<ReportSummaryCard['accuracy'], 'definition'>

/**
 * The agreement statistic a card shows, by measurement level: chance-corrected where there are categories; for a
 * probability scored against an outcome, its Brier score against the human majority's outcome.
 */
export function agreementStatistic(level: string, againstOutcome = false): string {
  if (level === 'probability' && againstOutcome) return 'brier'
  switch (level) {
    case 'nominal':
      return 'cohen_kappa'
    case 'ordinal':
      return 'weighted_kappa_quadratic'
    case 'ratio':
      return 'krippendorff_alpha_ratio'
    default:
      return 'krippendorff_alpha_interval'
  }
}

function figure(value: number | null | undefined, ci: ReportInterval | undefined, reason?: string): Figure {
  const v = typeof value === 'number' ? value : null
  return {
    value: v,
    ci_low: ci?.ci_low ?? null,
    ci_high: ci?.ci_high ?? null,
    ci_method: ci && ci.ci_low !== null ? ci.method : null,
    ...(v === null && reason ? { reason } : {})
  }
}

/**
 * The interval the report recommends at the card's size: the cluster bootstrap over items where it is defined and
 * the card rests on at least the report's minimum of items, else the Wilson interval (the warnings call bootstrap
 * intervals unreliable below that minimum).
 */
function accuracyInterval(ci: Record<string, ReportInterval>, nItems: number, minItems: number): ReportInterval | undefined {
  const boot = ci.accuracy_bootstrap
  return boot && boot.ci_low !== null && nItems >= minItems ? boot : ci.accuracy
}

/**
 * The agreement's interval on a card: the bootstrap, except below `minItems` items, where the report calls bootstrap
 * intervals unreliable and the statistic has an asymptotic one (Cohen's and weighted kappa), as accuracy takes Wilson.
 */
function agreementInterval(ci: Record<string, ReportInterval>, statistic: string, nItems: number, minItems: number): ReportInterval | undefined {
  const asymptotic = ci[`${statistic}_asymptotic`]
  return nItems < minItems && asymptotic && asymptotic.ci_low !== null ? asymptotic : ci[statistic]
}

function read(row: ReportComparison, name: string): number | null {
  const v = (row as unknown as Record<string, unknown>)[name]
  return typeof v === 'number' ? v : null
}

export function buildSummary(report: Report): ReportSummaryCard[] {
  const nameOf = new Map(report.sources.map((s) => [s.id, s.name]))
  const kindOf = new Map(report.sources.map((s) => [s.id, s.kind]))
  // A failed or empty run has no figures to put on a card; the sources list says why it is left out.
  const judges = report.sources.filter((s) => s.role === 'judge' && !s.left_out)
  const criterionRank = new Map(report.criteria.map((c, i) => [c, i]))
  const minItems = report.settings.min_items_for_interval
  const majority = report.sources.find((s) => s.kind === 'human_majority')?.id ?? null
  const cards: ReportSummaryCard[] = []

  for (const judge of judges) {
    for (const section of report.fields) {
      const rows = section.comparisons.filter((r) => r.source === judge.id && r.n_in_scope > 0)
      const pairwiseRows = section.name === 'winner' ? (report.pairwise?.rows ?? []).filter((r) => r.source === judge.id) : []
      if (rows.length === 0 && pairwiseRows.length === 0) continue
      const first = <T extends { criterion: string }>(list: readonly T[]): T | undefined =>
        [...list].sort((a, b) => (criterionRank.get(a.criterion) ?? 99) - (criterionRank.get(b.criterion) ?? 99))[0]
      const headline = first(rows)
      const pairwise: ReportPairwiseRow | undefined = first(pairwiseRows)
      const categorical = section.level === 'nominal' || section.level === 'ordinal'
      const criterion = pairwise?.criterion ?? headline?.criterion ?? null
      const intervals: Array<ReportInterval | undefined> = []

      let accuracy: Figure
      let baseline: number | null = null
      let label: ReportSummaryCard['majority_label'] = []
      let random: number | null = null
      let nItems = 0
      let nUnits = 0
      // Judged answers that could not be read: each counted as not correct, and said on the card when they are many.
      let unreadable = 0
      let accuracyMeans: string | null = null
      let withoutValue: WithoutValue | null = null
      // Units (or calls) the accuracy leaves out, which its definition names.
      let leftOut = 0
      const criterionName = criterion === null ? null : (nameOf.get(criterion) ?? criterion)
      if (pairwise) {
        accuracy = figure(pairwise.accuracy, accuracyInterval(pairwise.ci, pairwise.n_items, minItems), pairwise.reasons.accuracy)
        intervals.push(pairwise.ci.accuracy_bootstrap)
        baseline = pairwise.majority_baseline
        label = pairwise.majority_label
        random = pairwise.random_baseline
        nItems = pairwise.n_items
        nUnits = pairwise.n_judged
        unreadable = pairwise.n_unparseable
        const bothOrders = (report.pairwise?.position ?? []).some((p) => p.source === judge.id && p.n_pairs > 0)
        // Calls never answered are named as a field card names its units without a value (pairwise calls always have one).
        const unanswered = { n: 0, inScope: pairwise.n_in_scope, ofAll: pairwise.accuracy_of_all ?? null, failed: pairwise.n_failed, abstained: pairwise.n_abstained, pending: pairwise.n_pending }
        leftOut = notJudged(unanswered)
        accuracyMeans = accuracyDefinition({ pairwise: true, bothOrders, judged: nUnits, items: nItems, criterion: criterionName ?? pairwise.criterion, withoutValue: unanswered })
      } else if (headline && categorical) {
        accuracy = figure(headline.accuracy, accuracyInterval(headline.ci, headline.n_items, minItems), headline.reasons.accuracy)
        intervals.push(headline.ci.accuracy_bootstrap)
        baseline = headline.majority_baseline ?? null
        label = headline.majority_label ?? []
        random = headline.random_baseline ?? null
        nItems = headline.n_items
        nUnits = headline.n_judged
        unreadable = headline.n_unparseable
        withoutValue = { n: headline.n_no_value, inScope: headline.n_in_scope, ofAll: headline.accuracy_of_all ?? null, failed: headline.n_failed, abstained: headline.n_abstained, pending: headline.n_pending }
        leftOut = notJudged(withoutValue)
        accuracyMeans = accuracyDefinition({ pairwise: false, judged: nUnits, items: nItems, criterion: criterionName ?? headline.criterion, withoutValue, kind: kindOf.get(judge.id) })
      } else {
        accuracy = figure(null, undefined, categorical ? 'no criterion labels this field' : `accuracy does not apply to a field at the ${section.level} level`)
        nItems = headline?.n_items ?? 0
        nUnits = headline?.n ?? 0
      }

      const statistic = agreementStatistic(section.level, scoredAgainstOutcome(section))
      // The judge's row against the human majority, even one with no unit in scope (the majority labels none of the
      // judge's units): the card then says why the agreement is undefined, as the row does, never that there is no majority.
      const withPeople = majority ? section.comparisons.find((r) => r.source === judge.id && r.criterion === majority) : undefined
      const agreementCi = withPeople ? agreementInterval(withPeople.ci, statistic, withPeople.n_items, minItems) : undefined
      intervals.push(agreementCi)
      const agreement = {
        ...figure(
          withPeople ? read(withPeople, statistic) : null,
          agreementCi,
          withPeople ? (withPeople.reasons[statistic] ?? `${statistic} does not apply to this field`) : 'no human majority on this field'
        ),
        statistic,
        against: withPeople ? majority : null,
        definition: withPeople ? agreementDefinition(statistic, withPeople.n, withPeople.outcome) : null
      }

      const human_ceiling = ceilingOf(report, section.name, statistic)
      const positionRow = section.name === 'winner' ? report.pairwise?.position.find((p) => p.source === judge.id) : undefined
      const position = positionRow
        ? {
            n_pairs: positionRow.n_pairs,
            n_compared: positionRow.n_compared,
            consistency: positionRow.position_consistency,
            biased_to_first: positionRow.biased_to_first,
            biased_to_second: positionRow.biased_to_second,
            preference_fairness: positionRow.preference_fairness
          }
        : null
      const flawRow = section.name === 'winner' ? report.pairwise?.fatal_flaws.find((f) => f.source === judge.id) : undefined
      const fatal_flaw_recall = flawRow
        ? { ...figure(flawRow.fatal_flaw_recall, flawRow.ci.fatal_flaw_recall, flawRow.reasons.fatal_flaw_recall), n: flawRow.n_judged, n_no_value: flawRow.n_no_value, n_unanswered: flawRow.n_unanswered }
        : null

      const share = largestShare(intervals)
      const flags = {
        too_few_items: nItems < minItems,
        unreliable_interval: share !== null && share > MAX_UNDEFINED_RESAMPLE_SHARE,
        undefined_resample_share: share
      }
      const verdicts: Verdict[] = []
      if (flags.too_few_items) verdicts.push('too_few_items')
      if (accuracy.value !== null && baseline !== null) verdicts.push(accuracy.value < baseline ? 'below_majority_baseline' : 'at_or_above_majority_baseline')
      if (accuracy.value !== null && unreadable > 0 && 2 * unreadable >= nUnits) verdicts.push('mostly_unreadable')
      if (human_ceiling === null || human_ceiling.min === null || human_ceiling.max === null) verdicts.push('no_human_ceiling')
      else if (agreement.value !== null) {
        // Against people's range: beyond the best annotator, within the range, or short of the least agreeing one
        // (for an error such as Brier, lower is better: a smaller error than every annotator is above the range).
        const lower = LOWER_IS_BETTER.has(statistic)
        const better = lower ? agreement.value < human_ceiling.min : agreement.value > human_ceiling.max
        const worse = lower ? agreement.value > human_ceiling.max : agreement.value < human_ceiling.min
        verdicts.push(better ? 'above_human_ceiling' : worse ? 'below_human_ceiling' : 'within_human_ceiling')
      }
      if (position && position.consistency !== null && position.consistency < 0.5) verdicts.push('position_inconsistent')
      if (fatal_flaw_recall && fatal_flaw_recall.value !== null && fatal_flaw_recall.value < 1) verdicts.push('misses_fatal_flaws')
      if (flags.unreliable_interval) verdicts.push('unreliable_interval')

      cards.push({
        source: judge.id,
        source_name: judge.name,
        field: section.name,
        level: section.level,
        criterion,
        criterion_name: criterionName,
        n_items: nItems,
        n_units: nUnits,
        ...(withoutValue ? { n_without_value: withoutValue.n } : {}),
        // Without a judged unit the accuracy is undefined, but a row that left units out still says which.
        accuracy: { ...accuracy, definition: accuracy.value !== null || leftOut > 0 ? accuracyMeans : null },
        majority_baseline: baseline,
        majority_label: label,
        random_baseline: random,
        agreement,
        human_ceiling,
        position,
        fatal_flaw_recall,
        flags,
        verdicts,
        verdict: verdictLine({ verdicts, nItems, minItems, accuracy, baseline, label, agreement, human_ceiling, position, fatal_flaw_recall, share, kind: kindOf.get(judge.id), unreadable, nUnits })
      })
    }
  }
  return cards
}

/** The human ceiling on a statistic, cited from the ceiling section: each annotator against the majority of the others. */
function ceilingOf(report: Report, field: string, statistic: string): ReportSummaryCard['human_ceiling'] {
  const cited = report.ceiling.find((c) => c.field === field)?.human_human.against_majority_of_others[statistic]
  if (!cited) return null
  return { statistic, rule: HUMAN_CEILING_RULE, ...cited }
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`

function verdictLine(c: {
  verdicts: readonly Verdict[]
  nItems: number
  minItems: number
  accuracy: Figure
  baseline: number | null
  label: ReportSummaryCard['majority_label']
  agreement: ReportSummaryCard['agreement']
  human_ceiling: ReportSummaryCard['human_ceiling']
  position: ReportSummaryCard['position']
  fatal_flaw_recall: ReportSummaryCard['fatal_flaw_recall']
  share: number | null
  kind: string | undefined
  unreadable: number
  nUnits: number
}): string {
  const parts: string[] = []
  for (const v of c.verdicts) {
    switch (v) {
      case 'too_few_items':
        parts.push(`too few items to say (${c.nItems}, fewer than ${c.minItems})`)
        break
      case 'below_majority_baseline':
        parts.push(`below its majority baseline (${pct(c.accuracy.value as number)} < ${pct(c.baseline as number)}, always "${alwaysLabel(c.label)}")`)
        break
      case 'at_or_above_majority_baseline':
        parts.push(`at or above its majority baseline (${pct(c.accuracy.value as number)} ≥ ${pct(c.baseline as number)})`)
        break
      case 'above_human_ceiling':
      case 'within_human_ceiling':
      case 'below_human_ceiling':
        parts.push(ceilingVerdictWords(v, c))
        break
      case 'no_human_ceiling':
        parts.push(`no human ceiling (${noCeilingWhy(c.human_ceiling)})`)
        break
      case 'mostly_unreadable':
        parts.push(`${c.unreadable} of its ${c.nUnits} judged answers could not be read, each counted as not correct`)
        break
      case 'position_inconsistent':
        parts.push(`position-inconsistent (same verdict in both orders on ${pct(c.position?.consistency as number)} of the pairs read in both orders)`)
        break
      case 'misses_fatal_flaws':
        parts.push(`misses fatal flaws (ruled against ${pct(c.fatal_flaw_recall?.value as number)} of flawed proposals)`)
        break
      case 'unreliable_interval':
        parts.push(`unreliable interval (${pct(c.share as number)} of resamples undefined)`)
        break
    }
  }
  const text = parts.join('; ')
  return text.charAt(0).toUpperCase() + text.slice(1) + '.'
}

/** The human-ceiling part of a card's verdict, with its figures and which way it reads (on the card's chip too). */
export function ceilingVerdictWords(verdict: 'above_human_ceiling' | 'within_human_ceiling' | 'below_human_ceiling', c: Pick<ReportSummaryCard, 'agreement' | 'human_ceiling'>): string {
  const figures = `${agreementLabel(c.agreement.statistic)} ${fmtNumber(c.agreement.value)}; annotators ${rangeOf(c.human_ceiling)}`
  const error = LOWER_IS_BETTER.has(c.agreement.statistic)
  if (verdict === 'above_human_ceiling') return `above the human ceiling (${figures}: ${error ? 'a smaller error than every annotator' : 'more agreement than every annotator'})`
  if (verdict === 'below_human_ceiling') return `below the human ceiling (${figures}: ${error ? 'a larger error than every annotator' : 'less agreement than every annotator'})`
  return `within the human ceiling (${figures})`
}

function rangeOf(ceiling: ReportSummaryCard['human_ceiling']): string {
  if (!ceiling || ceiling.min === null || ceiling.max === null) return 'n/a'
  return fmtRange(ceiling.min, ceiling.max)
}

/** Why a report has no card: no judge, every judge left out, nothing to score them against, or no field scored. */
export function noSummaryWhy(report: Report): string {
  const judges = report.sources.filter((s) => s.role === 'judge')
  if (judges.length === 0) return 'No judge to summarise: the report has no judge run, imported model answers or panel.'
  const compared = judges.filter((s) => !s.left_out)
  if (compared.length === 0) return `No judge to summarise: every judge is left out of the comparisons (${judges.length}; Sources says why).`
  if (report.criteria.length === 0) {
    return `No card: ${compared.length} judge${compared.length === 1 ? '' : 's'} but nothing to score them against (no reference labels, adjudications or annotations); the Sources table lists them.`
  }
  return `No card: no judge was scored on a field against a criterion (${compared.length} judge${compared.length === 1 ? '' : 's'} in Sources).`
}
