import { spawn } from 'node:child_process'

export interface CheckLimits {
  timeoutMs: number
  /** Characters of output kept; the rest is dropped with a notice at the end. */
  maxOutput: number
  /** V8 heap of the check process. */
  heapMb: number
  /** Address space of the whole check process (heap, ArrayBuffers, code), where the platform can bound it. */
  addressSpaceMb: number
}

export interface RawCheckResult {
  output: string
  error: string | null
  timedOut: boolean
}

// Runs in a separate `node` process. The snippet is evaluated in a fresh V8 context that holds only `console` and
// the language's own built-ins: no require, process, fetch, timers or file access. The process boundary is what
// bounds memory: ArrayBuffers live outside the V8 heap, so only an address-space limit on the process (or killing
// it) stops them.
const CHILD_SOURCE = String.raw`
const vm = require('node:vm')
let input = ''
process.stdin.setEncoding('utf8')
process.stdin.on('data', (c) => (input += c))
process.stdin.on('end', () => {
  const { code, timeoutMs, maxOutput } = JSON.parse(input)
  const lines = []
  let size = 0
  let dropped = 0
  const push = (line) => {
    const room = maxOutput - size
    if (room <= 0) { dropped += line.length + 1; return }
    const kept = line.length > room ? line.slice(0, room) : line
    dropped += line.length - kept.length
    lines.push(kept)
    size += kept.length + 1
  }
  const context = vm.createContext(Object.create(null), { codeGeneration: { strings: false, wasm: false } })
  // console is built inside the context: the snippet only ever holds the context's own functions, and the host
  // callback stays in a closure it cannot reach, so no outer Function constructor is exposed.
  vm.runInContext('(function (emit) {' +
    'const show = (a) => { if (typeof a === "string") return a; try { return JSON.stringify(a) } catch (e) { return String(a) } };' +
    'const log = (...args) => { emit(String(args.map(show).join(" "))) };' +
    'globalThis.console = Object.freeze({ log, info: log, warn: log, error: log })' +
  '})', context)(push)
  let error = null
  try {
    vm.runInContext(code, context, { timeout: timeoutMs, filename: 'check.js' })
  } catch (e) {
    error = String(e && e.message ? e.message : e)
  }
  process.stdout.write(JSON.stringify({ output: lines.join('\n'), dropped, error }))
})
`

/** The notice appended to output that was cut; stored with the output, so whoever reads it later sees it too. */
export function truncationNotice(dropped: number, maxOutput: number): string {
  return `[output truncated: ${dropped} more characters not shown; at most ${maxOutput} are kept]`
}

/**
 * Starts the check process: on POSIX through `sh` to set the address-space limit (`ulimit -v`) and then `exec` node,
 * so the process that is killed at the time limit is the one running the code. The environment is empty, so no
 * NODE_OPTIONS or loader reaches it.
 */
export function runInCheckProcess(code: string, limits: CheckLimits): Promise<RawCheckResult> {
  // Under Electron, process.execPath is the app itself, and the packaged app cannot run as Node (the RunAsNode fuse
  // is off): spawning it would start a second copy of the app, not a check.
  if (process.versions.electron !== undefined) {
    return Promise.resolve({ output: '', error: 'worked checks are not available in this build of the desktop app; run them in browser mode (assay serve)', timedOut: false })
  }
  const nodeArgs = [`--max-old-space-size=${limits.heapMb}`, '--max-semi-space-size=8', '--disallow-code-generation-from-strings', '-e', CHILD_SOURCE]
  const posix = process.platform !== 'win32'
  const child = posix
    ? spawn('/bin/sh', ['-c', `ulimit -v ${limits.addressSpaceMb * 1024} && exec "$0" "$@"`, process.execPath, ...nodeArgs], { env: {}, stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn(process.execPath, nodeArgs, { env: {}, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true })
  // What the parent buffers is bounded too: the child never legitimately writes more than its capped output.
  const maxStdout = limits.maxOutput * 6 + 4096
  return new Promise((resolve) => {
    let stdout = ''
    let stderr = ''
    let settled = false
    let timedOut = false
    const finish = (r: RawCheckResult) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      resolve(r)
    }
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, limits.timeoutMs + 1500)
    child.stdout.setEncoding('utf8')
    child.stderr.setEncoding('utf8')
    child.stdout.on('data', (c: string) => {
      stdout += c
      if (stdout.length > maxStdout) finish({ output: '', error: 'the check wrote more than its output limit', timedOut: false })
    })
    child.stderr.on('data', (c: string) => {
      if (stderr.length < 4096) stderr += c
    })
    child.on('error', (e) => finish({ output: '', error: `the check could not start: ${e.message}`, timedOut: false }))
    child.on('close', (exit, signal) => {
      if (timedOut) return finish({ output: '', error: `stopped after ${limits.timeoutMs} ms`, timedOut: true })
      if (exit === 0) {
        try {
          const r = JSON.parse(stdout) as { output: string; dropped: number; error: string | null }
          const output = r.dropped > 0 ? `${r.output}\n${truncationNotice(r.dropped, limits.maxOutput)}` : r.output
          return finish({ output, error: r.error, timedOut: r.error?.includes('timed out') ?? false })
        } catch {
          return finish({ output: '', error: 'the check process answered something unreadable', timedOut: false })
        }
      }
      // V8 aborts (SIGTRAP/SIGABRT) when it cannot get memory, and a failed mmap under the address-space limit can
      // surface as SIGSEGV: say so rather than show only a signal name.
      const outOfMemory =
        /out of memory|allocation failed|OOM|reserve virtual memory/i.test(stderr) ||
        ['SIGTRAP', 'SIGABRT', 'SIGSEGV', 'SIGBUS'].includes(signal ?? '') ||
        exit === 133 ||
        exit === 134
      const how = signal ?? `exit ${exit}`
      finish({
        output: '',
        error: outOfMemory ? `the check ran out of memory (stopped at its memory limit; ${how})` : `the check stopped (${how})`,
        timedOut: false
      })
    })
    child.stdin.on('error', () => undefined)
    child.stdin.end(JSON.stringify({ code, timeoutMs: limits.timeoutMs, maxOutput: limits.maxOutput }))
  })
}
