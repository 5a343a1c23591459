import { checkOutputText } from '../../shared/check-output'
import { runCheck, type CheckResult } from './run-check'

/**
 * How a stored check's output came about: `verified` — main re-ran the code on submit and got the output the client
 * sent; `mismatch` — main's output differs, and main's is stored (the client's beside it); `unverified` — main could
 * not re-run it (at capacity, or it did not finish), and the client's output is stored as sent.
 */
export type CheckVerification = 'verified' | 'mismatch' | 'unverified'

export { checkOutputText }

interface StoredCheck {
  code: string
  output: string
  ran_at: string
  verification?: CheckVerification
  client_output?: string
  verify_note?: string
}

function isCheck(v: unknown): v is StoredCheck {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false
  const o = v as Record<string, unknown>
  return typeof o.code === 'string' && typeof o.output === 'string' && typeof o.ran_at === 'string'
}

/**
 * How long re-running one answer's checks may take in all: an answer may hold many checks (its size is capped, their
 * number is not), and the submit waits for them. Checks left when it is spent are stored unverified, saying so.
 */
export const VERIFY_BUDGET_MS = 20_000

/**
 * Re-runs every worked check in a judgement (any `{ code, output, ran_at }` object, wherever the form put it) and
 * returns a copy with each check's provenance set by main. Whatever verification fields the client sent are
 * replaced: only main says a check is verified.
 */
export async function verifyChecks(judgement: unknown, session: object, run: typeof runCheck = runCheck, budgetMs = VERIFY_BUDGET_MS): Promise<unknown> {
  return verifyWithin(judgement, session, run, { until: performance.now() + budgetMs, budgetMs })
}

interface Budget {
  until: number
  budgetMs: number
}

async function verifyWithin(judgement: unknown, session: object, run: typeof runCheck, budget: Budget): Promise<unknown> {
  if (Array.isArray(judgement)) {
    // One after another: several checks of one answer at once would only meet the per-session cap.
    const out: unknown[] = []
    for (const v of judgement) out.push(await verifyWithin(v, session, run, budget))
    return out
  }
  if (!judgement || typeof judgement !== 'object') return judgement
  if (isCheck(judgement)) return verifyOne(judgement, session, run, budget)
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(judgement)) out[k] = await verifyWithin(v, session, run, budget)
  return out
}

async function verifyOne(check: StoredCheck, session: object, run: typeof runCheck, budget: Budget): Promise<StoredCheck> {
  const base = { code: check.code, ran_at: check.ran_at }
  if (performance.now() >= budget.until) {
    return { ...base, output: check.output, verification: 'unverified', verify_note: `not re-run: this answer's checks used the ${budget.budgetMs / 1000} s allowed for re-running them` }
  }
  let result: CheckResult
  try {
    result = await run(check.code, undefined, session)
  } catch (e) {
    return { ...base, output: check.output, verification: 'unverified', verify_note: `not re-run: ${(e as Error).message}` }
  }
  // A check stopped by its time limit may be slow here and fast there: its output proves nothing either way.
  if (result.timedOut) return { ...base, output: check.output, verification: 'unverified', verify_note: 'the re-run stopped at the time limit' }
  const mainOutput = checkOutputText(result)
  if (mainOutput === check.output) return { ...base, output: mainOutput, verification: 'verified' }
  return { ...base, output: mainOutput, verification: 'mismatch', client_output: check.output }
}

export interface CheckProvenanceCounts {
  verified: number
  mismatch: number
  unverified: number
  /** Checks stored without a verification (imported, or stored before checks were re-run on submit). */
  unrecorded: number
}

/** How many worked checks in these judgements main verified, found different, could not verify, or never saw. */
export function countCheckProvenance(judgements: Iterable<unknown>): CheckProvenanceCounts {
  const counts: CheckProvenanceCounts = { verified: 0, mismatch: 0, unverified: 0, unrecorded: 0 }
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit)
    if (!v || typeof v !== 'object') return
    if (isCheck(v)) {
      const k = v.verification
      if (k === 'verified' || k === 'mismatch' || k === 'unverified') counts[k]++
      else counts.unrecorded++
      return
    }
    Object.values(v).forEach(visit)
  }
  for (const j of judgements) visit(j)
  return counts
}
