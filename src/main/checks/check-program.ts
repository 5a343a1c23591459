// The program a check process runs, as source text: `(function (require, input, done) { … })`. It evaluates the
// snippet in a fresh V8 context that holds only `console` and the language's own built-ins (no require, process,
// fetch, timers or file access), keeps at most `maxOutput` characters of what it prints, and hands back one JSON
// string. Plain source, so the Node child (`node -e`) and the desktop's utility process run the very same text.
export const CHECK_PROGRAM = String.raw`(function (require, input, done) {
  const vm = require('node:vm')
  const { code, timeoutMs, maxOutput } = input
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
  done(JSON.stringify({ output: lines.join('\n'), dropped, error }))
})`

/** `node -e` source: the program fed from stdin, answering on stdout. */
export const NODE_CHILD_SOURCE = `
let input = ''
process.stdin.setEncoding('utf8')
process.stdin.on('data', (c) => (input += c))
process.stdin.on('end', () => (${CHECK_PROGRAM})(require, JSON.parse(input), (s) => process.stdout.write(s)))
`

export interface CheckPayload {
  code: string
  timeoutMs: number
  maxOutput: number
}
