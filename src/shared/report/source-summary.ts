import { CRITERION_KINDS, JUDGE_KINDS } from './input'
import { tiesAreAnswers, type ResolvedSource } from './resolve'
import type { ReportSource } from './schema'

/** A source's row of the sources table: its role, and its counts of calls by status. */
export function sourceSummary(source: ResolvedSource): ReportSource {
  const kind = source.input.kind
  const role: ReportSource['role'] = CRITERION_KINDS.has(kind) ? 'criterion' : JUDGE_KINDS.has(kind) ? 'judge' : 'human'
  return {
    id: source.id,
    kind,
    name: source.input.name,
    role,
    detail: source.input.detail,
    n_items: source.itemStatus.size,
    n_calls: source.counts.calls - encodedTies(source),
    n_answered: source.counts.answered - encodedTies(source),
    n_failed: source.counts.failed,
    n_unparseable: source.counts.unparseable,
    n_abstained: source.counts.abstained,
    n_pending: source.counts.pending,
    n_tied_votes: source.counts.tiedVotes,
    // Filled in by flaggedSources once every table is built.
    too_few_items: false,
    unreliable_interval: false,
    undefined_resample_share: null
  }
}

/**
 * A both-orders fit gives one verdict per pair; its ties are written as two trials of that verdict, one for each
 * side (calibrate/apply.ts), so that the vote leaves them without a value. Each such pair is one answer on record,
 * not two: the extra trial is taken off the calls it counts, so its calls are its pairs, as in the pairwise table.
 */
function encodedTies(source: ResolvedSource): number {
  return tiesAreAnswers(source.input) ? source.counts.tiedVotes : 0
}
