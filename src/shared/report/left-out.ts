import { JUDGE_KINDS } from './input'
import type { ResolvedSource } from './resolve'
import type { ReportSource } from './schema'

/**
 * Judge sources with no answer to score: every call failed, or none was made or finished (an empty run, calls still
 * pending). They are listed among the sources with why, and left out of every comparison, card and plot, where they
 * would otherwise appear as a judge with nothing behind its figures. An unreadable answer or an abstention is an
 * answer the tables count, so a source with one stays in.
 */
export function leftOutOf(source: ResolvedSource): NonNullable<ReportSource['left_out']> | null {
  if (!JUDGE_KINDS.has(source.input.kind)) return null
  const c = source.counts
  if (c.answered > 0 || c.unparseable > 0 || c.abstained > 0) return null
  if (c.failed > 0) {
    const pending = c.pending > 0 ? `, ${c.pending} still pending` : ''
    return { status: 'failed', reason: `every call failed (${c.failed} of ${c.calls}${pending}): nothing to compare` }
  }
  return { status: 'empty', reason: c.calls === 0 ? noCallsWhy(source) : `no call has finished (${c.pending} pending): nothing to compare` }
}

/** Why a source has no call in scope: for a fit, that it is no longer held out or is evaluated on another split. */
function noCallsWhy(source: ResolvedSource): string {
  const d = source.input.detail
  if (source.input.kind === 'calibrated') {
    if (d.held_out === false) return 'not held out: a split made after this fit moved items it learned from, so it answers nothing (its recalibration section says which)'
    if (typeof d.eval_split === 'string') return `a fit answers only on its eval split (${d.eval_split}), without the items it learned from: none is in the items in scope`
  }
  return 'no calls on the items in scope'
}
