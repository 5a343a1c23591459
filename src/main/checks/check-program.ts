import { ENGINE_PRELUDE } from './engine-prelude'

// The program a check process runs, as source text: `(function (require, input, done) { … })`. It loads QuickJS
// compiled to WebAssembly (from the files named in the payload) and runs the snippet there: the engine has its own
// heap inside a bounded WebAssembly memory and no host function at all, so nothing the snippet does can name an
// object of this process. It stops the snippet at its deadline (the engine's interrupt handler, also between promise
// jobs), keeps at most `maxOutput` characters of what it prints, and hands back one JSON string. Plain source, so the
// Node child (`node -e`) and the desktop's utility process run the very same text.
export const CHECK_PROGRAM = String.raw`(function (require, input, done) {
  const { code, timeoutMs, maxOutput, engine } = input
  const PRELUDE = ${JSON.stringify(ENGINE_PRELUDE)}
  const MAX_JOBS = 1000000
  let answered = false
  const answer = (o) => { if (!answered) { answered = true; done(JSON.stringify(o)) } }
  const run = async () => {
    const core = require(engine.core)
    // The engine's loader as CommonJS (the variant would import its ES module form), so plain require finds it
    // wherever this process can require at all, the desktop app's archive included.
    const variant = { ...require(engine.variant).default, importModuleLoader: () => Promise.resolve(require(engine.loader)) }
    const wasmBinary = require('node:fs').readFileSync(engine.wasm)
    // The engine's whole linear memory (heap, its C stack, ArrayBuffers) cannot grow past this.
    const wasmMemory = new WebAssembly.Memory({ initial: 256, maximum: engine.memoryMb * 16 })
    const QuickJS = await core.newQuickJSWASMModuleFromVariant(core.newVariant(variant, { wasmBinary, wasmMemory }))
    const runtime = QuickJS.newRuntime()
    runtime.setMemoryLimit(engine.heapMb * 1024 * 1024)
    runtime.setMaxStackSize(engine.stackKb * 1024)
    let deadline = Infinity
    let interrupted = false
    runtime.setInterruptHandler(() => {
      if (Date.now() <= deadline) return false
      interrupted = true
      return true
    })
    const ctx = runtime.newContext()
    const take = (result) => {
      if (result.error) { result.error.dispose(); return null }
      return result.value
    }
    // The linear memory grew past the engine's allocation limit: its heap was full (the usage query itself
    // cannot run at that point).
    const nearMemoryLimit = () => wasmMemory.buffer.byteLength >= engine.heapMb * 1024 * 1024
    const text = (handle) => (handle && ctx.typeof(handle) === 'string' ? ctx.getString(handle) : null)
    const prelude = take(ctx.evalCode(PRELUDE, 'prelude.js'))
    const fns = take(ctx.callFunction(prelude, ctx.undefined, ctx.newNumber(maxOutput)))
    const read = ctx.getProp(fns, 0)
    const describe = ctx.getProp(fns, 1)

    let failure = null
    let completion = null
    deadline = Date.now() + timeoutMs
    const evaluated = ctx.evalCode(code, 'check.js')
    if (evaluated.error) failure = evaluated.error
    else completion = evaluated.value
    // Promise jobs (async functions, then callbacks) run until none is left, the deadline passes or too many ran.
    let jobs = 0
    let tooManyJobs = false
    while (!failure && !interrupted && runtime.hasPendingJob()) {
      if (jobs >= MAX_JOBS) { tooManyJobs = true; break }
      if (Date.now() > deadline) { interrupted = true; break }
      const r = runtime.executePendingJobs(1000)
      if (r.error) failure = r.error
      else jobs += r.value
    }
    // A completion that is a rejected promise (an async main() that threw) is the check's error.
    if (!failure && !interrupted && completion && ctx.typeof(completion) === 'object') {
      const state = ctx.getPromiseState(completion)
      if (state.type === 'rejected') failure = state.error
    }
    // The heap filled while promise jobs ran: the engine drops a job it cannot allocate without an error, so the queue
    // empties and the check would look finished. One that reached the limit is not trusted to have run to its end.
    const heapFilled = !failure && !interrupted && !tooManyJobs && jobs > 0 && nearMemoryLimit()

    // Reading back gets a moment of its own and a little room above the memory limit.
    const timedOut = interrupted
    deadline = Date.now() + 250
    runtime.setMemoryLimit(engine.heapMb * 1024 * 1024 + 4 * 1024 * 1024)
    let error = null
    if (timedOut) error = 'timed out after ' + timeoutMs + ' ms'
    else if (tooManyJobs) error = 'more than ' + MAX_JOBS + ' promise jobs'
    else if (heapFilled) error = 'out of memory (while its promise jobs ran: some may not have run)'
    else if (failure && ctx.sameValue(failure, ctx.null) && nearMemoryLimit()) {
      // Out of memory with no room left even for the error object: the engine throws null.
      error = 'out of memory'
    } else if (failure) {
      const shown = ctx.callFunction(describe, ctx.undefined, failure)
      error = (shown.error ? null : text(shown.value)) ?? 'the check failed with an error that cannot be shown'
    }
    deadline = Date.now() + 250
    const printed = text(take(ctx.callFunction(read, ctx.undefined))) ?? '0:'
    const colon = printed.indexOf(':')
    let dropped = Number(printed.slice(0, colon)) || 0
    let output = printed.slice(colon + 1)
    if (output.length > maxOutput) {
      dropped += output.length - maxOutput
      output = output.slice(0, maxOutput)
    }
    answer({ output, dropped, error, timedOut })
  }
  // The engine itself failed (its stack ran into this process's, or a trap inside the WebAssembly): nothing of it is
  // read back, and the message is ours, not the engine's.
  run().catch((e) => {
    const stack = e instanceof RangeError && /call stack/i.test(String(e.message))
    const memory = /out of memory|could not allocate|Cannot allocate/i.test(String(e && e.message))
    answer({
      output: '',
      dropped: 0,
      error: stack ? 'stack overflow (the check went deeper than the engine allows)' : memory ? 'out of memory (the engine could not get more)' : 'the engine stopped (' + String(e && e.name) + ')',
      timedOut: false
    })
  })
})`

/** `node -e` source: the program fed from stdin, answering on stdout. */
export const NODE_CHILD_SOURCE = `
let input = ''
process.stdin.setEncoding('utf8')
process.stdin.on('data', (c) => (input += c))
process.stdin.on('end', () => (${CHECK_PROGRAM})(require, JSON.parse(input), (s) => process.stdout.write(s, () => process.exit(0))))
`

/** Where the engine's files are and how large it may grow; main resolves the files (see engine-files.ts). */
export interface EngineSpec {
  /** quickjs-emscripten-core's CommonJS entry. */
  core: string
  /** The release-sync variant's CommonJS entry. */
  variant: string
  /** The variant's Emscripten loader, CommonJS form. */
  loader: string
  /** The variant's WebAssembly file, read by the check process itself. */
  wasm: string
  /** The engine's linear memory at most (its heap, C stack and ArrayBuffers). */
  memoryMb: number
  /** The engine's own allocation limit (objects, strings, arrays). */
  heapMb: number
  /** The engine's stack limit. */
  stackKb: number
}

export interface CheckPayload {
  code: string
  timeoutMs: number
  maxOutput: number
  engine: EngineSpec
}
