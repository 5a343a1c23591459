import { agreementLabel, fmtPercent, plural } from './format'

/**
 * What each figure of the report counts, stated beside it wherever two places show figures of the same name that
 * are different quantities (the judge's accuracy on its own units and on the units it shares with another judge;
 * agreement with the human majority and with each annotator in turn; the human ceiling of the cards and the mean over
 * pairs of annotators). Where two places show the same quantity, the second cites the first's value.
 */

/** The unit of a field's table. */
export const FIELD_UNIT =
  'units: one per item and unit of the instrument; a call\'s trials and display orders are combined by vote (mean for numbers), an even split leaving no value'

/** What each count of a field table is, said under it (text, HTML and screen alike). */
export const FIELD_COUNTS =
  'in scope: the criterion\'s units on items the source was asked; judged: n, the unparseable and the ties a source ' +
  'gave as its answer (an accuracy scores both as not correct; a statistic of numbers or probabilities, which needs a ' +
  'value, is on n alone); n: units both the source and the criterion have a value for, on which every agreement ' +
  'statistic is computed; failed, abstained and pending: asked, with no answer (in scope, not judged); no value: ' +
  'answered, but a split vote (display orders or trials that disagree), an answer that leaves the field empty (an ' +
  'estimate the instrument lets it leave out), or for a panel its rule, left no value (in scope, not judged)'

/** What the pairwise table's counts are, said under it (text and HTML). */
export const PAIRWISE_COUNTS =
  'accuracy = correct / judged, where judged counts completed calls and an unparseable answer counts as wrong; failed ' +
  'calls are listed and left out; "of all in scope" also counts failed, abstained and pending calls as not correct; ' +
  'baselines are scored on the same judged calls (always answering the majority label on each, its item\'s label)'

/** Why a row has no majority baseline: it is scored on the row's judged units (or calls), and there are none. */
export const NO_JUDGED_FOR_BASELINE = 'nothing judged: the baseline is scored on the judged units, and this row has none'

/** What the judge-against-judge table's figures are, said above it (HTML and screen alike). */
export const JUDGE_VS_JUDGE_NOTE =
  "On the units both judges answered and the criterion labels: each judge's figure here is on the shared units only, " +
  "not its figure on all of its own units (that is in the field's table and on its card). A field of categories is " +
  'scored right/wrong (both right / only first / only second / both wrong; exact McNemar test, two-sided); a number by ' +
  "its mean absolute difference from the criterion's; a probability scored against an outcome by its Brier score " +
  'against that outcome, as its field table scores it (lower is better). The difference (first − second; of ' +
  'accuracies in percentage points, pp) with a paired cluster-bootstrap interval over the report\'s resamples. A ' +
  'recalibrated judge set beside its raw judge on the same units is the recalibration section\'s after − before: its ' +
  'row gives that section\'s interval, turned to the row\'s order, so the difference has one interval in the report'

/** The sources table's count columns, in text, HTML and on the screen alike. */
export const SOURCE_COUNT_COLUMNS = ['Items', 'Calls', 'Answered', 'Failed', 'Unparseable', 'Abstained', 'Pending', 'Tied votes (units)'] as const

/** What the sources table counts, said with it (text, HTML and screen alike). */
export const SOURCES_NOTE =
  'Items: items of the scope the source was asked about. Calls: answers on record (one per item, trial and display ' +
  'order; one per item for annotators, derived sources and a both-orders fit). Tied votes: units left without a value ' +
  'on some field because trials, display orders or annotators split evenly, a unit counted once however many of its ' +
  'fields split (each field\'s count is in its table: no value, or the human majority\'s tied votes); for a both-orders ' +
  'fit they are the ties it gave as its answer, judged and not correct in its tables. The pairwise table\'s ties count ' +
  'calls, per display order. A judge whose every call failed, or with none finished, is listed here and left out of ' +
  'every comparison'

/** What the win rates count, said with them (text, HTML and screen alike). */
/** Why a flaw-matching row has no quote overlap: it is read on matched flaws whose two quotes are both given. */
export const NO_QUOTE_OVERLAP = 'no matched flaw with a quote from both the judge and the experts'

/** Why an annotator's own row has no cluster-bootstrap interval (its Wilson interval stands beside it). */
export const NO_ANNOTATOR_BOOTSTRAP =
  'no cluster-bootstrap interval for one annotator\'s row: the report draws its resamples for judges and majorities; the Wilson interval beside it holds'

/** How each published form of agreement is counted (text, HTML and screen alike). */
export const PUBLISHED_AGREEMENT_NOTE =
  'MT-Bench S1 (Zheng et al. 2023): every judge vote against every human vote on the same pair, ties kept, a verdict ' +
  'that changes with the display order counted as a tie; S2: as S1 without the comparisons where either side says tie; ' +
  'AlpacaEval: each vote against the majority of the other annotators\' votes on the pair; JudgeBench (judges asked in ' +
  'both orders): +1 per order right, −1 per order wrong, a pair correct when the sum is above 0'

/** What the accuracy-per-subset table's cells are of (text, HTML and screen alike). */
export const SUBSETS_NOTE =
  'Each cell: the accuracy over the subset\'s judged calls (each display order of each pair counted on its own), with a ' +
  'Wilson interval that counts those calls as independent; the table above gives its Wilson interval over items'

/** What the Bradley–Terry table's figures are (text, HTML and screen alike). */
export const BRADLEY_TERRY_NOTE =
  'Log-strengths centred at 0: P(i beats j) = 1 / (1 + exp(s_j − s_i)); intervals refit on each resample of items. A ' +
  'resample in which some system never wins or never loses has no strengths and is left out of the interval (undefined ' +
  'resamples); an interval resting on few resamples is unreliable'

export const WIN_RATES_NOTE =
  'Win rate: wins over the m human proposals a system was paired with. A tie, where a source\'s trials or display ' +
  'orders split on a pair, counts half a win; missing, a pair asked but never answered, counts in m as not won (of ' +
  'judged: over m less missing). The human majority\'s split pairs have no label and are left out of its m (the ties ' +
  'policy)'

/** The fatal-flaw table's columns, in text, HTML and on the screen alike. */
export const FATAL_FLAW_COLUMNS = ['Source', 'Marked fatal', 'Judged', 'Ruled against', 'Recall', 'No value', 'Unanswered', 'Both sides fatal (left out)', 'Named a fatal flaw', 'Named recall'] as const

/** What the fatal-flaw table counts, said under it (text, HTML and screen alike). */
export const FATAL_FLAW_NOTE =
  'Per pair, the source\'s verdict with its display orders and trials combined by vote. Marked fatal: pairs the source ' +
  'was asked where people marked one proposal fatal and not the other; judged: those with a verdict, and those ' +
  'answered unparseably or with a tie the source gave as its answer (neither rules against the proposal); recall = ' +
  'ruled against / judged. No value: answered, but the display orders or trials split, so no verdict; unanswered: ' +
  'failed, pending or abstained; neither is judged. Named: where the source lists fatal flaws itself, how often it ' +
  'named one on the proposal people marked'

/** The table of judges' own flaw audits, in text, HTML and on the screen alike. */
export const JUDGE_FLAW_AUDIT_COLUMNS = ['Judge (flaw audit)', 'Marked fatal by people', 'Marked fatal by the judge', 'Recall', 'Unparseable', 'Unanswered', 'Other proposal marked fatal', 'Pairs audited'] as const

/** What that table counts, said above it. */
export const JUDGE_FLAW_AUDIT_NOTE =
  'Judges asked the flaw audit on the same pairs, one answer a pair (the first): of the proposals people marked fatal ' +
  '(the other not) that the judge audited, how often its audit marked that proposal fatal (recall, Wilson interval), ' +
  'and how often it marked the other proposal fatal instead. An audit that could not be read is counted among the ' +
  'audited and names nothing (unparseable); pairs the judge was asked but never answered are counted apart ' +
  '(unanswered), not audited'

/** What the position table's figures are of, said under it (text, HTML and screen alike). */
export const POSITION_NOTE =
  'Of the pairs answered in both display orders (MT-Bench, Zheng et al. 2023): the same verdict in both orders, the side ' +
  'shown first (second) picked in both orders or in one with a tie in the other, and unparseable in either order; these ' +
  'four add up to 100%. Consistency of compared (Shi et al. 2024): the same verdict in both orders among the pairs read ' +
  'in both orders, errors left out; conflict rate = 1 − it (Wang et al. 2023). Preference fairness runs from −1 (always ' +
  'the first shown) to 1 (always the second); 0 is fair'

/** The unit of the pairwise table. */
export const PAIRWISE_UNIT =
  'calls: each display order of each pair is counted on its own against the criterion\'s winner, its trials merged by vote into one call (so a run of several trials has fewer calls here than in Sources, and a trial split is a tie); a source with no display order, such as a both-orders fit, gives one verdict per pair'

/** The rule of the human ceiling on the summary cards, and of the ceiling section's row that the cards cite. */
export const HUMAN_CEILING_RULE = 'each annotator against the majority of the other annotators' as const

export const CEILING_DEFINITIONS = {
  annotator_pairs: 'mean over pairs of annotators of the statistic between two annotators, each pair on the units both answered',
  all_annotators: 'every annotator at once (Fleiss\' kappa, Gwet\'s AC1, Krippendorff\'s alpha), on every item any annotator answered',
  against_majority_of_others: `${HUMAN_CEILING_RULE}, averaged over annotators (range beside it): the human ceiling of the summary cards`,
  judge_with_each_annotator: 'mean over annotators of the statistic between the judge and one annotator, on the units both answered (not the judge against the human majority)',
  judge_against_majority: 'the judge against the human majority, on the units both have a value for: the agreement of the summary cards'
} as const

/** Units a field row's source answered without a value, and that row's share correct of all in scope. */
export interface WithoutValue {
  n: number
  inScope: number
  ofAll: number | null
  /** The row's units asked but never answered, also in "of all in scope" and also not correct there. */
  failed: number
  abstained: number
  pending: number
}

/** The units (or calls) a row's accuracy leaves out, each named on its card: without a value, or never answered. */
export function notJudged(w: WithoutValue): number {
  return w.n + w.failed + w.abstained + w.pending
}

/** Why a source's unit has no value, by its kind: a panel's rule left it undecided; any other source's answers split. */
function withoutValueWhy(kind: string | undefined): string {
  return kind === 'panel'
    ? "the panel's rule left it undecided: a missing member's score could change the outcome"
    : 'display orders or trials that split evenly, or an answer that leaves the field empty'
}

/**
 * A card's accuracy: correct over judged, in the units of the table it comes from. Units answered without a value (a
 * vote split evenly, a panel left undecided) and units or calls never answered are not judged: where there are any,
 * the card names them, and the row's share of all in scope, which counts them as not correct.
 */
export function accuracyDefinition(options: { pairwise: boolean; bothOrders?: boolean; judged: number; items: number; criterion: string; withoutValue?: WithoutValue; kind?: string | undefined }): string {
  const what = !options.pairwise
    ? plural(options.judged, 'judged unit')
    : options.bothOrders
      ? `${plural(options.judged, 'judged call')} (each display order of each pair)`
      : `${plural(options.judged, 'judged verdict')} (one per pair)`
  const base = `correct share of ${what} against ${options.criterion}, on ${plural(options.items, 'item')}`
  const w = options.withoutValue
  if (!w || notJudged(w) === 0) return base
  // Every unit (or call) "of all in scope" counts as not correct is named: those without a value, and those never answered.
  const parts = [
    w.n > 0 ? `${plural(w.n, 'unit')} without a value (${withoutValueWhy(options.kind)})` : '',
    ...[[w.failed, 'failed'], [w.abstained, 'abstained'], [w.pending, 'pending']].filter(([n]) => (n as number) > 0).map(([n, what]) => `${n} ${what}`)
  ].filter(Boolean)
  const ofAll = w.ofAll === null ? `of all ${w.inScope} in scope` : `${fmtPercent(w.ofAll)} of all ${w.inScope} in scope`
  return `${base}; not judged: ${parts.join(', ')}${parts.length > 1 ? '; all counted' : ', counted'} as not correct in ${ofAll}`
}

/** A card's chance-corrected agreement with the human majority. */
export function agreementDefinition(statistic: string, n: number, outcome?: string): string {
  const against = outcome && !outcome.startsWith('none') ? `against the human majority's outcome (${outcome})` : 'against the human majority'
  return `${agreementLabel(statistic)} of the judge ${against}, on the ${plural(n, 'unit')} both have a value for`
}

/** A judge-against-judge row: both judges scored on the units they share, not on all of their own. */
export function judgeVsJudgeDefinition(statistic: string, n: number, items: number, criterion: string): string {
  return `${agreementLabel(statistic)} of each judge on the ${plural(n, 'unit')} (${plural(items, 'item')}) that both judges and ${criterion} have a value for; each judge's figure on all its own units is in the field's table`
}
