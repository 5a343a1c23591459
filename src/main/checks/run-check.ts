import { AssayError } from '../../shared/errors'
import { runInCheckProcess, type CheckLimits } from './check-process'

export interface CheckResult {
  output: string
  error: string | null
  ms: number
  timedOut: boolean
}

const MAX_CODE = 20_000
export const CHECK_LIMITS: Omit<CheckLimits, 'timeoutMs'> = {
  maxOutput: 20_000,
  heapMb: 64,
  engineHeapMb: 64,
  engineMemoryMb: 128,
  engineStackKb: 256,
  addressSpaceMb: 1024,
  residentMb: 384
}
/** Each check is a process of up to CHECK_LIMITS.addressSpaceMb: these bound how many exist at once. */
export const MAX_CHECKS_PER_SESSION = 2
export const MAX_CHECKS_OVERALL = 4

let running = 0
const perSession = new WeakMap<object, number>()

/**
 * Runs a worked check (a short JavaScript snippet that prints with console.log) in its own process with a time,
 * memory and output limit. Deterministic snippets give the same output for anyone who re-runs them. `session` is
 * whoever asked (one count per session); when it or the whole app is at its cap the answer is `busy`, which
 * clients retry after a pause.
 */
export async function runCheck(code: string, timeoutMs = 2000, session: object = anonymous): Promise<CheckResult> {
  if (code.length > MAX_CODE) return { output: '', error: `the check is longer than ${MAX_CODE} characters`, ms: 0, timedOut: false }
  const mine = perSession.get(session) ?? 0
  if (mine >= MAX_CHECKS_PER_SESSION) {
    throw new AssayError('busy', `${MAX_CHECKS_PER_SESSION} checks of yours are already running; try again when one has finished`)
  }
  if (running >= MAX_CHECKS_OVERALL) throw new AssayError('busy', `${MAX_CHECKS_OVERALL} checks are already running; try again when one has finished`)
  running++
  perSession.set(session, mine + 1)
  const started = performance.now()
  try {
    const r = await runInCheckProcess(code, { ...CHECK_LIMITS, timeoutMs })
    return { ...r, ms: Math.round(performance.now() - started) }
  } finally {
    running--
    perSession.set(session, (perSession.get(session) ?? 1) - 1)
  }
}

const anonymous = {}

/** Checks running now, overall (for tests and diagnostics). */
export function runningChecks(): number {
  return running
}
