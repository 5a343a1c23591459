import type { ProbesSection } from './probes-schema'

// What the probes section says around its tables, alike in the HTML report and on the screen.

/** The probes in scope, which of them count, and how the intervals are made. */
export function probeCountsWords(s: ProbesSection): string {
  return (
    `${s.n_probes} probe${s.n_probes === 1 ? '' : 's'} in scope: ${s.n_verified} verified, ${s.n_rejected} rejected by their check, ` +
    `${s.n_unchecked} not yet checked. Only verified probes are counted, below and as reference labels in every table; ` +
    'a probe whose answer could not be read is judged and detects nothing, as in every table; one asked but never ' +
    'answered (failed, pending, abstained) is counted as unanswered, never scored; one whose answers (trials, display ' +
    'orders or annotators) split evenly is counted as a tie, left out of the probes and the rate. Intervals: Wilson over ' +
    `probes, and a cluster bootstrap over probe families (${s.bootstrap.resamples} resamples, seed ${s.bootstrap.seed}) ` +
    `at ${Math.round(s.level * 100)}%`
  )
}

/** The verdict a probe kind expects of a sound judge. */
export function probeExpectationWords(rule: string | undefined): string {
  return rule === 'no_preference' ? 'no preference from framing alone' : 'the original is better'
}

/** What the detection table counts as detected. */
export function detectionRuleWords(rule: string): string {
  return rule === 'a flaw is listed on the probe side' ? 'Detected: a flaw is listed on the probe side' : 'Detected: the original is preferred over its probe'
}
