// Source run inside the QuickJS engine before a worked check, as its first script. It installs the only thing a
// check is given (a console), removes code generation from strings, and returns two functions the host keeps for
// itself: `read` (what was printed) and `describe` (an error as text). Everything it needs is taken from the
// engine's built-ins before the check runs, so a check that replaces String, JSON, Reflect or String.prototype.slice
// changes nothing here. The console formats inside the engine and keeps the output inside the engine: no host
// function is called while a check runs, and the host only ever reads string primitives back.
export const ENGINE_PRELUDE = String.raw`(function (maxOutput) {
  'use strict'
  const G = globalThis
  const stringify = JSON.stringify
  const toText = String
  const apply = Reflect.apply
  const slice = String.prototype.slice
  const freeze = Object.freeze
  const define = Object.defineProperty
  const protoOf = Object.getPrototypeOf
  const MAX_ERROR = 2000
  let out = ''
  let lines = 0
  let size = 0
  let dropped = 0
  // At most maxOutput characters are kept; what is dropped is counted for the truncation notice.
  const push = (line) => {
    const room = maxOutput - size
    if (room <= 0) { dropped += line.length + 1; return }
    const kept = line.length > room ? apply(slice, line, [0, room]) : line
    dropped += line.length - kept.length
    out += (lines++ > 0 ? '\n' : '') + kept
    size += kept.length + 1
  }
  // As before: strings as they are, anything else as JSON, or String() where JSON cannot show it.
  const show = (a) => {
    if (typeof a === 'string') return a
    try { return stringify(a) } catch (e) { return toText(a) }
  }
  const log = (...args) => {
    let line = ''
    for (let i = 0; i < args.length; i++) {
      const s = show(args[i])
      line += (i > 0 ? ' ' : '') + (s === undefined || s === null ? '' : toText(s))
    }
    push(line)
  }
  G.console = freeze({ log, info: log, warn: log, error: log })

  // No code from strings (as the checks' earlier engine): eval and every function constructor refuse.
  const refuse = function () { throw new EvalError('code generation from strings is not allowed in a worked check') }
  const functionPrototype = protoOf(function () {})
  define(refuse, 'prototype', { value: functionPrototype, writable: false })
  define(refuse, 'name', { value: 'Function' })
  const kinds = [function () {}, async function () {}, function* () {}, async function* () {}]
  for (let i = 0; i < kinds.length; i++) {
    define(protoOf(kinds[i]), 'constructor', { value: refuse, writable: false, enumerable: false, configurable: false })
  }
  define(G, 'Function', { value: refuse, writable: true, enumerable: false, configurable: true })
  define(G, 'eval', { value: refuse, writable: true, enumerable: false, configurable: true })

  const read = () => dropped + ':' + out
  const describe = (e) => {
    try {
      const m = e !== null && (typeof e === 'object' || typeof e === 'function') ? e.message : undefined
      const t = toText(m ? m : e)
      return t.length > MAX_ERROR ? apply(slice, t, [0, MAX_ERROR]) + ' [error message cut at ' + MAX_ERROR + ' characters]' : t
    } catch (x) {
      return 'the check threw a value that cannot be shown'
    }
  }
  return [read, describe]
})`
