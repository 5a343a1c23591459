import { spawn } from 'node:child_process'
import { NODE_CHILD_SOURCE, type CheckPayload } from './check-program'

export interface CheckLimits {
  timeoutMs: number
  /** Characters of output kept; the rest is dropped with a notice at the end. */
  maxOutput: number
  /** V8 heap of the check process. */
  heapMb: number
  /** Address space of the whole check process (heap, ArrayBuffers, code), where the platform can bound it. */
  addressSpaceMb: number
  /** Resident memory at which a launcher that can only watch (the desktop's utility process) kills the check. */
  residentMb: number
}

/** What a check process did, before it is read: its answer (stdout or message), its end, and why it ended. */
export interface CheckProcessOutcome {
  answer: string
  stderr: string
  exit: number | null
  signal: string | null
  timedOut: boolean
  /** Killed by the launcher for memory (resident size over the limit) or for writing too much. */
  killedFor?: 'memory' | 'output'
  startError?: string
}

/** Starts one check process for one payload; each launcher bounds time, memory and output its own way. */
export type CheckLauncher = (payload: CheckPayload, limits: CheckLimits) => Promise<CheckProcessOutcome>

let launcher: CheckLauncher | null = null

/** The desktop shell installs its utility-process launcher here; elsewhere checks run in a Node child process. */
export function setCheckLauncher(l: CheckLauncher | null): void {
  launcher = l
}

export interface RawCheckResult {
  output: string
  error: string | null
  timedOut: boolean
}

/** The notice appended to output that was cut; stored with the output, so whoever reads it later sees it too. */
export function truncationNotice(dropped: number, maxOutput: number): string {
  return `[output truncated: ${dropped} more characters not shown; at most ${maxOutput} are kept]`
}

/** Runs one check in its own process and reads what came back. */
export async function runInCheckProcess(code: string, limits: CheckLimits): Promise<RawCheckResult> {
  const payload: CheckPayload = { code, timeoutMs: limits.timeoutMs, maxOutput: limits.maxOutput }
  if (launcher) return interpret(await launcher(payload, limits), limits)
  // Under Electron, process.execPath is the app itself, and the packaged app cannot run as Node (the RunAsNode fuse
  // is off): spawning it would start a second copy of the app, not a check.
  if (process.versions.electron !== undefined) {
    return { output: '', error: 'worked checks cannot run here: no check process is available', timedOut: false }
  }
  return interpret(await launchNodeChild(payload, limits), limits)
}

/**
 * The Node child: on POSIX started through `sh` to set the address-space limit (`ulimit -v`) and then `exec` node,
 * so the process killed at the time limit is the one running the code. The environment is empty, so no NODE_OPTIONS
 * or loader reaches it.
 */
function launchNodeChild(payload: CheckPayload, limits: CheckLimits): Promise<CheckProcessOutcome> {
  const nodeArgs = [`--max-old-space-size=${limits.heapMb}`, '--max-semi-space-size=8', '--disallow-code-generation-from-strings', '-e', NODE_CHILD_SOURCE]
  const posix = process.platform !== 'win32'
  const child = posix
    ? spawn('/bin/sh', ['-c', `ulimit -v ${limits.addressSpaceMb * 1024} && exec "$0" "$@"`, process.execPath, ...nodeArgs], { env: {}, stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn(process.execPath, nodeArgs, { env: {}, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true })
  // What the parent buffers is bounded too: the child never legitimately writes more than its capped output.
  const maxAnswer = maxAnswerLength(limits)
  return new Promise((resolve) => {
    let answer = ''
    let stderr = ''
    let timedOut = false
    let killedFor: CheckProcessOutcome['killedFor']
    let startError: string | undefined
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, limits.timeoutMs + 1500)
    child.stdout.setEncoding('utf8')
    child.stderr.setEncoding('utf8')
    child.stdout.on('data', (c: string) => {
      answer += c
      if (answer.length > maxAnswer && !killedFor) {
        killedFor = 'output'
        child.kill('SIGKILL')
      }
    })
    child.stderr.on('data', (c: string) => {
      if (stderr.length < 4096) stderr += c
    })
    child.on('error', (e) => (startError = e.message))
    child.on('close', (exit, signal) => {
      clearTimeout(timer)
      resolve({ answer, stderr, exit, signal, timedOut, ...(killedFor ? { killedFor } : {}), ...(startError ? { startError } : {}) })
    })
    child.stdin.on('error', () => undefined)
    child.stdin.end(JSON.stringify(payload))
  })
}

/** The longest answer a check process can legitimately give (its capped output, JSON-escaped, and the envelope). */
export function maxAnswerLength(limits: CheckLimits): number {
  return limits.maxOutput * 6 + 4096
}

/** Reads a check process's outcome as the result shown and stored. */
export function interpret(o: CheckProcessOutcome, limits: CheckLimits): RawCheckResult {
  if (o.startError) return { output: '', error: `the check could not start: ${o.startError}`, timedOut: false }
  if (o.timedOut) return { output: '', error: `stopped after ${limits.timeoutMs} ms`, timedOut: true }
  if (o.killedFor === 'output') return { output: '', error: 'the check wrote more than its output limit', timedOut: false }
  if (o.killedFor === 'memory') return { output: '', error: `the check ran out of memory (stopped at ${limits.residentMb} MB)`, timedOut: false }
  if (o.exit === 0) {
    try {
      const r = JSON.parse(o.answer) as { output: string; dropped: number; error: string | null }
      const output = r.dropped > 0 ? `${r.output}\n${truncationNotice(r.dropped, limits.maxOutput)}` : r.output
      return { output, error: r.error, timedOut: r.error?.includes('timed out') ?? false }
    } catch {
      return { output: '', error: 'the check process answered something unreadable', timedOut: false }
    }
  }
  // V8 aborts (SIGTRAP/SIGABRT) when it cannot get memory, and a failed mmap under the address-space limit can
  // surface as SIGSEGV: say so rather than show only a signal name.
  const outOfMemory =
    /out of memory|allocation failed|OOM|reserve virtual memory/i.test(o.stderr) ||
    ['SIGTRAP', 'SIGABRT', 'SIGSEGV', 'SIGBUS'].includes(o.signal ?? '') ||
    o.exit === 133 ||
    o.exit === 134
  const how = o.signal ?? `exit ${o.exit}`
  return { output: '', error: outOfMemory ? `the check ran out of memory (stopped at its memory limit; ${how})` : `the check stopped (${how})`, timedOut: false }
}
