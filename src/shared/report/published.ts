import type { ReportItem } from './input'
import { ItemIndex } from './item-index'
import type { CriterionTruth } from './pairwise-row'
import { put } from './intervals'
import { CHOICE, PAIR_STATUSES, TIE, itemWinner, type PairCalls, type PairStatus, type Side } from './pairwise'
import type { ResolvedSource } from './resolve'
import type { ReportPairwise } from './schema'

/**
 * Judge–human agreement in the published forms:
 * - MT-Bench (Zheng et al. 2023, §4.2; FastChat `compute_agreement.py`): each judge vote against each human vote on
 *   the same pair; a judge asked in both orders whose verdict changes with the order votes "tie". S1 keeps every
 *   comparison (chance 1/3 with three possible votes), S2 drops those where either side says tie (chance 1/2).
 *   People among themselves: every pair of human votes on the same pair.
 * - AlpacaEval: each vote against the majority of the other annotators' votes on the pair, the same leave-one-out
 *   for people and judges (a judge meets exactly the majorities each person meets); a split majority is left out,
 *   as everywhere in the report.
 * - JudgeBench (Tan et al., ICLR 2025, `utils/metrics.py`): per pair asked in both orders, +1 for each order
 *   judged right and −1 for each judged wrong (a tie or an unreadable answer 0); correct when the sum is > 0. A judge
 *   guessing independently in each order is right on both with probability 1/4, the rule's chance level.
 */

type Vote = Side | 'tie'
type Row = ReportPairwise['published_agreement'][number]

/** Votes by an item's dense index: none, a, b, or a tie. */
const NO_VOTE = 0
const TIE_VOTE = 3
const VOTE_OF_CODE: ReadonlyArray<Vote | undefined> = [undefined, 'a', 'b', 'tie']

/**
 * The MT-Bench vote of a source on each pair (by the item's dense index in `index`): the same verdict in both orders,
 * else a tie. The calls' items are the report's (pairCallsOf keeps no other).
 */
export function mtBenchVotes(calls: PairCalls, index: ItemIndex): Int8Array {
  // Folded call by call: a vote unlike the pair's vote so far makes it a tie, and a tie stays one.
  const out = new Int8Array(index.size)
  for (let c = 0; c < calls.length; c++) {
    const status = calls.status[c]
    if (status !== CHOICE && status !== TIE) continue
    const vote = status === CHOICE ? (calls.winner[c] as number) : TIE_VOTE
    const d = index.find(calls.item[c] as number)
    const earlier = out[d] as number
    if (earlier === NO_VOTE) out[d] = vote
    else if (earlier !== vote) out[d] = TIE_VOTE
  }
  return out
}

/** People's votes on each pair, by the item's dense index (items are indexed in order). */
function humanVotes(annotators: readonly ResolvedSource[], items: readonly ReportItem[]): Array<Side[] | undefined> {
  const out = new Array<Side[] | undefined>(items.length)
  if (annotators.length === 0) return out
  items.forEach((item, d) => {
    if (!item.pair) return
    const votes = annotators.map((a) => itemWinner(a, item)).filter((v): v is Side => v !== null)
    if (votes.length > 0) out[d] = votes
  })
  return out
}

/** The single most common vote, or null on a split. */
function majorityOf(votes: readonly Side[]): Side | null {
  let a = 0
  for (const v of votes) if (v === 'a') a++
  const b = votes.length - a
  return a === b ? null : a > b ? 'a' : 'b'
}

class Share {
  agree = 0
  n = 0
  add(same: boolean): void {
    this.n++
    if (same) this.agree++
  }
}

function mtBench(pairs: Iterable<[Vote, Vote]>): { s1: Share; s2: Share } {
  const s1 = new Share()
  const s2 = new Share()
  for (const [x, y] of pairs) {
    s1.add(x === y)
    if (x !== 'tie' && y !== 'tie') s2.add(x === y)
  }
  return { s1, s2 }
}

function row(source: string, s1: Share, s2: Share, alpaca: Share): Row {
  const out: Record<string, unknown> = { source, n_mt_bench_s1: s1.n, n_mt_bench_s2: s2.n, n_alpaca_eval: alpaca.n }
  const reasons: Record<string, string> = {}
  const share = (s: Share, none: string) => (s.n === 0 ? { value: null, reason: none } : { value: s.agree / s.n })
  put(out, reasons, 'mt_bench_s1', share(s1, 'no pair has both a vote of this source and a human vote'))
  put(out, reasons, 'mt_bench_s2', share(s2, 'no comparison left once ties are dropped'))
  put(out, reasons, 'alpaca_eval_agreement', share(alpaca, 'no pair has a majority of the other annotators (two or more annotators, no split)'))
  return { ...(out as Omit<Row, 'reasons'>), reasons }
}

export function publishedAgreement(
  annotators: readonly ResolvedSource[],
  judges: ReadonlyArray<{ id: string; calls: PairCalls }>,
  items: readonly ReportItem[],
  criterion: { id: string; truth: CriterionTruth } | null
): Row[] {
  // The items by the criterion's dense index where there is one (the calls' items are the report's).
  const index = criterion?.truth.index ?? new ItemIndex(items.map((i) => i.id))
  const human = humanVotes(annotators, items)
  const rows: Row[] = []

  // People among themselves: every pair of votes on a pair; each vote against the majority of the others.
  const humanPairs: Array<[Vote, Vote]> = []
  const humanAlpaca = new Share()
  for (const votes of human) {
    if (!votes) continue
    for (let i = 0; i < votes.length; i++) {
      for (let j = i + 1; j < votes.length; j++) humanPairs.push([votes[i] as Side, votes[j] as Side])
      if (votes.length < 2) continue
      const others = majorityOf(votes.filter((_, k) => k !== i))
      if (others !== null) humanAlpaca.add(votes[i] === others)
    }
  }
  const people = mtBench(humanPairs)
  rows.push(row('human-human', people.s1, people.s2, humanAlpaca))

  for (const judge of judges) {
    const votes = mtBenchVotes(judge.calls, index)
    const pairs: Array<[Vote, Vote]> = []
    const alpaca = new Share()
    for (let d = 0; d < votes.length; d++) {
      const theirs = human[d]
      if (votes[d] === NO_VOTE || !theirs) continue
      const vote = VOTE_OF_CODE[votes[d] as number] as Vote
      for (const h of theirs) pairs.push([vote, h])
      if (theirs.length < 2) continue
      for (let i = 0; i < theirs.length; i++) {
        const others = majorityOf(theirs.filter((_, k) => k !== i))
        if (others !== null) alpaca.add(vote === others)
      }
    }
    const { s1, s2 } = mtBench(pairs)
    const out = row(judge.id, s1, s2, alpaca)
    const sign = criterion ? judgeBench(judge.calls, index, criterion.truth.side) : null
    if (sign && criterion) {
      const record = out as unknown as Record<string, unknown>
      put(record, out.reasons, 'judgebench_accuracy', sign.n === 0 ? { value: null, reason: 'no labelled pair was answered in both display orders' } : { value: sign.correct / sign.n })
      out.n_judgebench = sign.n
      out.judgebench_criterion = criterion.id
    }
    rows.push(out)
  }
  return rows
}

/**
 * JudgeBench's both-order sign rule; null for a source never asked about a pair in both orders. Folded call by call
 * into columns by the item's dense index (runs over every item of every judge).
 */
function judgeBench(calls: PairCalls, index: ItemIndex, truth: Int8Array): { correct: number; n: number } | null {
  const firstOrder = new Int32Array(index.size).fill(-1)
  const severalOrders = new Uint8Array(index.size)
  const unanswered = new Uint8Array(index.size)
  const score = new Int32Array(index.size)
  for (let c = 0; c < calls.length; c++) {
    const d = index.find(calls.item[c] as number)
    const order = calls.order[c] as number
    const status = PAIR_STATUSES[calls.status[c] as number] as PairStatus
    if (firstOrder[d] === -1) firstOrder[d] = order
    else if (order !== firstOrder[d]) severalOrders[d] = 1
    if (status === 'failed' || status === 'pending' || status === 'abstained') unanswered[d] = 1
    if (status === 'choice') score[d] = (score[d] as number) + (calls.winner[c] === truth[d] ? 1 : -1)
  }
  let bothOrders = false
  let correct = 0
  let n = 0
  for (let d = 0; d < index.size; d++) {
    if (severalOrders[d] === 0) continue
    bothOrders = true
    if (truth[d] === 0 || unanswered[d] === 1) continue
    n++
    if ((score[d] as number) > 0) correct++
  }
  return bothOrders ? { correct, n } : null
}
