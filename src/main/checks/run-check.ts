import { Worker } from 'node:worker_threads'

export interface CheckResult {
  output: string
  error: string | null
  ms: number
  timedOut: boolean
}

const MAX_CODE = 20_000
const MAX_OUTPUT = 20_000

// The worker evaluates the snippet in a fresh V8 context that holds only `console` and the language's own
// built-ins: no require, process, fetch, timers or file access. The worker thread itself is killed at the time
// limit, which also stops code that loops forever inside the context.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const vm = require('node:vm')
const lines = []
let size = 0
const push = (line) => {
  size += line.length
  if (size <= ${MAX_OUTPUT}) lines.push(line)
}
const context = vm.createContext(Object.create(null), { codeGeneration: { strings: false, wasm: false } })
// console is built inside the context: the snippet only ever holds the context's own functions, and the host
// callback stays in a closure it cannot reach, so no outer Function constructor is exposed.
vm.runInContext(\`(function (emit) {
  const show = (a) => { if (typeof a === 'string') return a; try { return JSON.stringify(a) } catch (e) { return String(a) } }
  const log = (...args) => { emit(String(args.map(show).join(' '))) }
  globalThis.console = Object.freeze({ log, info: log, warn: log, error: log })
})\`, context)(push)
try {
  vm.runInContext(workerData.code, context, { timeout: workerData.timeoutMs, filename: 'check.js' })
  parentPort.postMessage({ output: lines.join('\\n'), error: null })
} catch (e) {
  parentPort.postMessage({ output: lines.join('\\n'), error: String(e && e.message ? e.message : e) })
}
`

/**
 * Runs a worked check (a short JavaScript snippet that prints with console.log) in an isolated worker with a time
 * and memory limit. Deterministic snippets give the same output for anyone who re-runs them.
 */
export function runCheck(code: string, timeoutMs = 2000): Promise<CheckResult> {
  if (code.length > MAX_CODE) return Promise.resolve({ output: '', error: `the check is longer than ${MAX_CODE} characters`, ms: 0, timedOut: false })
  const started = performance.now()
  return new Promise((resolve) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { code, timeoutMs },
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
      env: {},
      stdout: true,
      stderr: true
    })
    let settled = false
    const finish = (r: Omit<CheckResult, 'ms'>) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      void worker.terminate()
      resolve({ ...r, ms: Math.round(performance.now() - started) })
    }
    const timer = setTimeout(() => finish({ output: '', error: `stopped after ${timeoutMs} ms`, timedOut: true }), timeoutMs + 1000)
    worker.once('message', (m: { output: string; error: string | null }) =>
      finish({ output: m.output, error: m.error, timedOut: m.error?.includes('timed out') ?? false })
    )
    worker.once('error', (e) => finish({ output: '', error: e.message, timedOut: false }))
    worker.once('exit', (code) => finish({ output: '', error: code === 0 ? null : `the check stopped (exit ${code})`, timedOut: false }))
  })
}
