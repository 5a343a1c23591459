/**
 * The text stored as a worked check's output: what it printed, then its error or the time-limit note. One function
 * for the form (which shows it) and for main (which re-runs the check on submit and compares), so a re-run of the same
 * code gives the same text.
 */
export function checkOutputText(r: { output: string; error: string | null; timedOut: boolean }): string {
  return [r.output, r.error ? `Error: ${r.error}` : '', r.timedOut ? '(stopped at the time limit)' : ''].filter(Boolean).join('\n')
}
