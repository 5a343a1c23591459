import type { ReportItem, FlawAuditInput } from './input'
import { exactCi, proportion, put, wilsonCi } from './intervals'
import { itemWinner, otherSide, type Side } from './pairwise'
import { unitKey, type ResolvedSource } from './resolve'
import type { ReportPairwise } from './schema'

type FatalFlawRow = ReportPairwise['fatal_flaws'][number]

/** Proposals people marked with a fatal flaw: per pair, the sides any annotator marked fatal. */
export function fatalSides(audits: readonly FlawAuditInput[], items: ReadonlyMap<number, ReportItem>): Map<number, Set<Side>> {
  const marked = new Map<number, Set<Side>>()
  for (const audit of audits) {
    const pair = items.get(audit.itemId)?.pair
    if (!pair) continue
    const sides = marked.get(audit.itemId) ?? new Set<Side>()
    for (const side of ['a', 'b'] as const) {
      const observation = audit.observations.find((o) => o.unit === `${pair.unit}:${side}`)
      if (observation?.values.has_fatal === true) sides.add(side)
    }
    marked.set(audit.itemId, sides)
  }
  return marked
}

/**
 * Fatal-flaw recall of one source: of the proposals people marked fatal (the other proposal of the pair not so
 * marked), how often its verdict went against that proposal; and, where it names fatal flaws itself, how often it
 * named one on that proposal. Pairs are accounted as the field tables account units: judged are the pairs with a
 * verdict, and those answered unparseably or with a tie the source gave as its answer (neither rules against the
 * proposal); a pair answered without a verdict (its display orders or trials split) and one never answered (failed,
 * pending, abstained) are counted apart, never judged.
 */
export function fatalFlawRow(source: ResolvedSource, marked: ReadonlyMap<number, ReadonlySet<Side>>, items: ReadonlyMap<number, ReportItem>, level: number): FatalFlawRow {
  let fatal = 0
  let judged = 0
  let ruledAgainst = 0
  let noValue = 0
  let unanswered = 0
  let bothFatal = 0
  let namedJudged = 0
  let named = 0
  const namedValues = source.values.get('has_fatal')
  const tieAnswers = source.tieAnswers?.get('winner')
  for (const [itemId, sides] of marked) {
    const item = items.get(itemId)
    const status = source.itemStatus.get(itemId)
    if (!item?.pair || status === undefined) continue
    if (sides.size === 2) {
      bothFatal++
      continue
    }
    const side = [...sides][0]
    if (!side) continue
    fatal++
    if (status === 'answered') {
      const winner = itemWinner(source, item)
      if (winner) {
        judged++
        if (winner === otherSide(side)) ruledAgainst++
      } else if (tieAnswers?.has(unitKey(itemId, item.pair.unit))) judged++
      else noValue++
    } else if (status === 'unparseable') judged++
    else unanswered++
    const flagged = namedValues?.get(unitKey(itemId, `${item.pair.unit}:${side}`))
    if (typeof flagged === 'boolean') {
      namedJudged++
      if (flagged) named++
    }
  }
  const reasons: Record<string, string> = {}
  const row: Record<string, unknown> = { source: source.id, n_fatal: fatal, n_judged: judged, n_ruled_against: ruledAgainst, n_no_value: noValue, n_unanswered: unanswered, n_both_fatal: bothFatal }
  const recall = proportion(ruledAgainst, judged, level, 'no proposal marked fatal was judged by this source')
  put(row, reasons, 'fatal_flaw_recall', recall)
  const ci: FatalFlawRow['ci'] = { fatal_flaw_recall: wilsonCi(recall), fatal_flaw_recall_exact: exactCi(ruledAgainst, judged, level, 'no proposal marked fatal was judged by this source') }
  if (namedJudged > 0) {
    const namedRecall = proportion(named, namedJudged, level)
    row.n_named_judged = namedJudged
    row.n_named = named
    put(row, reasons, 'fatal_flaw_named_recall', namedRecall)
    ci.fatal_flaw_named_recall = wilsonCi(namedRecall)
  } else reasons.fatal_flaw_named_recall = 'this source says of no flawed proposal whether it has a fatal flaw (only answers that list flaws do)'
  return { ...(row as Omit<FatalFlawRow, 'ci' | 'reasons'>), ci, reasons }
}
