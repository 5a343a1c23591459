import { spawn } from 'node:child_process'
import { NODE_CHILD_SOURCE, type CheckPayload } from './check-program'
import { engineFiles } from './engine-files'

export interface CheckLimits {
  timeoutMs: number
  /** Characters of output kept; the rest is dropped with a notice at the end. */
  maxOutput: number
  /** V8 heap of the check process (the host around the engine; the snippet's own heap is the engine's). */
  heapMb: number
  /** The engine's allocation limit (the snippet's objects, strings and arrays). */
  engineHeapMb: number
  /** The engine's whole WebAssembly memory (its heap, its C stack and ArrayBuffers), a hard ceiling. */
  engineMemoryMb: number
  /** The engine's stack: deep enough for ordinary recursion, shallow enough to stop before the process's own. */
  engineStackKb: number
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
  let payload: CheckPayload
  try {
    payload = checkPayload(code, limits)
  } catch (e) {
    return { output: '', error: `worked checks cannot run here: their engine is missing (${(e as Error).message})`, timedOut: false }
  }
  if (launcher) return interpret(await launcher(payload, limits), limits)
  // Under Electron, process.execPath is the app itself, and the packaged app cannot run as Node (the RunAsNode fuse
  // is off): spawning it would start a second copy of the app, not a check.
  if (process.versions.electron !== undefined) {
    return { output: '', error: 'worked checks cannot run here: no check process is available', timedOut: false }
  }
  return interpret(await launchNodeChild(payload, limits), limits)
}

/** What a check process is given: the code, its limits and where the engine's files are. */
export function checkPayload(code: string, limits: CheckLimits): CheckPayload {
  return {
    code,
    timeoutMs: limits.timeoutMs,
    maxOutput: limits.maxOutput,
    engine: { ...engineFiles(), memoryMb: limits.engineMemoryMb, heapMb: limits.engineHeapMb, stackKb: limits.engineStackKb }
  }
}

/**
 * V8 flags of every check process. The engine's WebAssembly is compiled by the baseline compiler only: the optimising
 * one, working in the background, needs more address space than the limit leaves (and a check is over before it
 * pays off), and one compiler gives the same stack depth on every run.
 */
export function checkProcessFlags(limits: Pick<CheckLimits, 'heapMb'>): string[] {
  return [`--max-old-space-size=${limits.heapMb}`, '--max-semi-space-size=8', '--disallow-code-generation-from-strings', '--liftoff-only']
}

/**
 * Flags of the Node child. V8 normally reserves several gigabytes of address space for each WebAssembly memory (to
 * check bounds by trapping); under the address-space limit that reservation fails, so bounds are checked in code.
 */
export function nodeChildFlags(limits: CheckLimits): string[] {
  const flags = checkProcessFlags(limits)
  if (process.allowedNodeEnvironmentFlags.has('--disable-wasm-trap-handler')) flags.push('--disable-wasm-trap-handler')
  return flags
}

/**
 * The Node child: on POSIX started through `sh` to set the address-space limit (`ulimit -v`) and then `exec` node,
 * so the process killed at the time limit is the one running the code. The environment is empty, so no NODE_OPTIONS
 * or loader reaches it.
 */
function launchNodeChild(payload: CheckPayload, limits: CheckLimits): Promise<CheckProcessOutcome> {
  const nodeArgs = [...nodeChildFlags(limits), '-e', NODE_CHILD_SOURCE]
  // Without the flag above (Node before 20.15) the reservation needs room: the limit then bounds only the rest.
  const trapHandlerOff = nodeArgs.includes('--disable-wasm-trap-handler')
  const addressSpaceKb = (trapHandlerOff ? limits.addressSpaceMb : limits.addressSpaceMb + 16 * 1024) * 1024
  const posix = process.platform !== 'win32'
  const child = posix
    ? spawn('/bin/sh', ['-c', `ulimit -v ${addressSpaceKb} && exec "$0" "$@"`, process.execPath, ...nodeArgs], { env: {}, stdio: ['pipe', 'pipe', 'pipe'] })
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
      const r = JSON.parse(o.answer) as { output: string; dropped: number; error: string | null; timedOut?: boolean }
      const output = r.dropped > 0 ? `${r.output}\n${truncationNotice(r.dropped, limits.maxOutput)}` : r.output
      return { output, error: r.error, timedOut: r.timedOut === true }
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
