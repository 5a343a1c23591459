import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCheck, type CheckResult } from '../../../src/main/checks/run-check'
import { escapeHelpers, MISSING_SLICE } from '../../support/check-escape'
import { repoRoot, tempDir } from '../../support/tmp'

// Worked checks are code from annotators: run through the real runCheck path (a check process with the engine in
// it), every attempt below must stay inside the engine. Each snippet that could reach the host would write a marker
// file, read /etc/passwd, open a loopback connection and start a detached process with a token in its command
// line; the tests assert none of that happened, that the answer is a harmless result, and that no process is left.

const tmp = tempDir()
const MARKER = tmp.file('escaped.txt')
const SLEEP = `sleep 37.${process.pid}`
let server: Server
let port = 0
let connections = 0

beforeAll(async () => {
  server = createServer((s) => {
    connections++
    s.destroy()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as { port: number }).port
})
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
  tmp.cleanup()
})

const usePayload = escapeHelpers(MARKER, SLEEP)

const run = (code: string, timeoutMs = 3000): Promise<CheckResult> => runCheck(code.replaceAll('${PORT}', String(port)), timeoutMs)

/** Processes whose parent is this test process and that are check processes, or any with the planted sleep. */
function leftovers(): string[] {
  if (process.platform !== 'linux') return []
  const out: string[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ')
      if (cmd.includes(SLEEP) || (ppid === process.pid && cmd.includes('--liftoff-only'))) out.push(`${name}: ${cmd.slice(0, 80)}`)
    } catch {
      // The process ended while it was read.
    }
  }
  return out
}

/** Nothing of the host was touched, the answer is plain text, and the check process is gone. */
function expectContained(r: CheckResult): void {
  expect(r.output).not.toMatch(/ESCAPED|PASSWD|root:|host reached/)
  expect(r.error ?? '').not.toMatch(/ESCAPED|root:/)
  expect(typeof r.output).toBe('string')
  expect(existsSync(MARKER)).toBe(false)
  expect(connections).toBe(0)
  expect(leftovers()).toEqual([])
}

describe('the escape through the console callback', () => {
  it('a console argument whose String() has a length and no slice reaches nothing of the host', async () => {
    const r = await run(`${usePayload}\n${MISSING_SLICE}`)
    expectContained(r)
    expect(r.output).toContain('foreign 0, host not reached')
  })

  it('the console called at the edge of the stack reaches nothing of the host', async () => {
    const r = await run(`${usePayload}
      let caught = 0
      const dive = (d) => {
        try { dive(d + 1) } catch (e) {}
        if (caught < 3) { try { console.log() } catch (e) { if (foreign(e)) { caught++; harvest(e) } } }
      }
      dive(0)
      report()`)
    expectContained(r)
    // Either the engine unwound and reported, or the run stopped as a whole with a stack error of its own.
    if (r.error === null) expect(r.output).toContain('foreign 0, host not reached')
    else expect(r.error).toMatch(/stack/)
  })
})

describe('constructor chains', () => {
  const chains = [
    "(function(){}).constructor('return this')()",
    "this.constructor.constructor('return process')()",
    "console.log.constructor('return process')()",
    "console.constructor.constructor('return process')()",
    "Object.getPrototypeOf(async function(){}).constructor('return process')",
    "Object.getPrototypeOf(function*(){}).constructor('return process')",
    "Object.getPrototypeOf(async function*(){}).constructor('return process')",
    "Reflect.construct(Function, ['return process'])",
    "new Function('return process')()",
    "eval('process')",
    "(0, eval)('this')",
    "[].constructor.constructor('return this')()",
    "(() => {}).constructor.call(null, 'return this')()"
  ]
  it.each(chains)('%s makes no code from strings', async (chain) => {
    const r = await run(`${usePayload}
      let got
      try { got = ${chain} } catch (e) { console.log('refused: ' + e.message) }
      if (got) found.push(got)
      report()`)
    expectContained(r)
    expect(r.output).toMatch(/^refused: code generation from strings is not allowed/)
  })

  it('the function constructors still answer instanceof and are the same object everywhere', async () => {
    const r = await run(`console.log((() => 1) instanceof Function, (async () => 1) instanceof Function, typeof Function, Function.prototype === Object.getPrototypeOf(function () {}))`)
    expect(r).toMatchObject({ output: 'true true function true', error: null })
  })
})

describe('prepareStackTrace, set in every way', () => {
  it('is never handed anything outside the engine, and stacks name no host file', async () => {
    const r = await run(`${usePayload}
      let calls = 0
      const pst = (e, sites) => { calls++; collect(sites); return 'formatted' }
      Error.prepareStackTrace = pst
      Object.defineProperty(Error, 'prepareStackTrace', { value: pst, writable: true, configurable: true })
      Reflect.set(Error, 'prepareStackTrace', pst)
      for (const C of [TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError, AggregateError]) C.prepareStackTrace = pst
      Object.prototype.prepareStackTrace = pst
      Error.prototype.prepareStackTrace = pst
      Object.setPrototypeOf(Error, { prepareStackTrace: pst })
      globalThis.prepareStackTrace = pst
      const stacks = []
      const provoke = [
        () => { throw new Error('own') },
        () => null.x,
        () => { const f = () => f(); f() },
        () => undefinedName,
        () => console.log({ toJSON() { throw new TypeError('inside the console') } }),
        () => console.log({ toString() { return {} }, toJSON: undefined, [Symbol.toPrimitive]: undefined }, Symbol('s'))
      ]
      for (const p of provoke) { try { p() } catch (e) { harvest(e); try { stacks.push(String(e.stack)) } catch (x) {} } }
      Error.captureStackTrace && Error.captureStackTrace({})
      report()
      console.log('calls ' + calls)
      console.log('stacks ' + stacks.join(' | '))`)
    expectContained(r)
    expect(r.output).toContain('foreign 0, host not reached')
    const stacks = r.output.split('\n').find((l) => l.startsWith('stacks ')) ?? ''
    expect(stacks).not.toMatch(/node:|node_modules|\[eval\]|wasm:/)
    expect(stacks).not.toContain(repoRoot)
  })
})

describe('tricks on console arguments', () => {
  const tricks: Array<[string, string]> = [
    ['a Proxy whose every trap throws', `const p = new Proxy({}, new Proxy({}, { get: () => () => { throw new Error('trap') } })); try { console.log(p) } catch (e) { harvest(e); console.log('refused ' + e.message) }`],
    ['toString that throws', `try { console.log({ toJSON: undefined, toString() { throw new Error('no') } }, Symbol()) } catch (e) { harvest(e); console.log('refused ' + e.message) }`],
    ['Symbol.toPrimitive that throws', `const o = { [Symbol.toPrimitive]() { throw new RangeError('prim') }, toJSON() { return BigInt(1) } }; try { console.log(o) } catch (e) { harvest(e); console.log('refused ' + e.message) }`],
    ['toJSON that re-enters the console without end', `const o = { toJSON() { console.log(o); return 1 } }; try { console.log(o) } catch (e) { harvest(e); console.log('refused ' + e.message) }`],
    ['a getter that swaps String and JSON mid-format', `const o = { get a() { globalThis.String = () => ({ length: 1e9, slice: undefined }); globalThis.JSON = { stringify: () => ({ length: 1e9 }) }; return 1 } }; try { console.log(o, o) } catch (e) { harvest(e) } console.log('after')`],
    ['an argument whose toJSON yields a length and no slice', `try { console.log({ toJSON: () => ({ length: 1e9, slice: undefined }) }) } catch (e) { harvest(e) }`],
    ['String.prototype.slice replaced before printing long text', `String.prototype.slice = function () { return { length: 1e9 } }; report(); try { console.log('y'.repeat(30000)) } catch (e) { harvest(e) }`],
    ['a hundred thousand arguments', `try { console.log(...new Array(100000).fill('z')) } catch (e) { harvest(e) }`]
  ]
  it.each(tricks)('%s stays in the engine', async (_name, trick) => {
    const r = await run(`${usePayload}\n${trick}\nif (!globalThis.reported) report()`)
    expectContained(r)
    if (r.error === null) expect(r.output).toContain('foreign 0, host not reached')
    expect(r.output.length).toBeLessThan(20_200)
  })
})

describe('what a check can name', () => {
  it('has only the language’s built-ins and its console', async () => {
    const r = await run(`
      const names = Object.getOwnPropertyNames(globalThis).sort()
      const host = ['require', 'process', 'module', 'exports', 'Buffer', 'fetch', 'WebAssembly', 'setTimeout', 'setInterval', 'setImmediate',
        'queueMicrotask', 'XMLHttpRequest', 'WebSocket', 'Worker', 'importScripts', 'navigator', 'Deno', 'Bun', 'std', 'os', 'scriptArgs',
        'print', 'global', '__dirname', '__filename', 'structuredClone', 'performance', 'crypto', 'TextDecoder']
      console.log(host.filter((n) => typeof globalThis[n] !== 'undefined' || names.includes(n)).join(',') || 'none')
      console.log(names.filter((n) => typeof globalThis[n] === 'object' && !(globalThis[n] instanceof Object) && globalThis[n] !== null).join(',') || 'none')`)
    expect(r).toMatchObject({ output: 'none\nnone', error: null })
  })

  it('cannot import a module, a file or a URL', async () => {
    const r = await run(`
      const tries = ['node:fs', 'fs', 'child_process', '/etc/passwd', 'file:///etc/passwd', 'http://127.0.0.1:${'${PORT}'}/x.js', 'std', 'os']
      for (const t of tries) import(t).then((m) => console.log('LOADED ' + t + ' ' + Object.keys(m)), (e) => console.log('refused ' + t))`)
    expectContained(r)
    expect(r.error).toBeNull()
    expect(r.output.split('\n')).toHaveLength(8)
    expect(r.output).not.toContain('LOADED')
  })

  it('cannot read files or open connections by any name it has', async () => {
    const r = await run(`
      const attempts = [
        () => require('fs').readFileSync('/etc/passwd', 'utf8'),
        () => process.binding('fs'),
        () => fetch('http://127.0.0.1:${'${PORT}'}/'),
        () => new WebSocket('ws://127.0.0.1:${'${PORT}'}/'),
        () => std.loadFile('/etc/passwd'),
        () => os.exec(['/bin/sh', '-c', '${SLEEP}']),
        () => new Worker('data:,1'),
        () => WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))
      ]
      for (const a of attempts) { try { console.log('GOT ' + String(a())) } catch (e) { console.log('refused ' + e.name) } }`)
    expectContained(r)
    expect(r.output).not.toContain('GOT')
  })
})

describe('bounded resources', () => {
  const loops: Array<[string, string]> = [
    ['an endless loop', 'while (true) {}'],
    ['an endless loop that catches whatever stops it', 'for (;;) { try { for (;;) {} } catch (e) {} }'],
    ['an endless chain of promise jobs', '(function f() { Promise.resolve().then(f) })()'],
    ['an endless async loop', '(async () => { for (;;) await null })()'],
    ['a fork bomb by every name', "for (;;) { for (const n of ['require', 'process', 'Worker', 'os']) { try { globalThis[n]('child_process') } catch (e) {} } }"],
    ['catastrophic backtracking', "/(a+)+$/.test('a'.repeat(40) + 'b')"]
  ]
  it.each(loops)('%s stops at the time limit and leaves no process', async (_name, code) => {
    const r = await run(code, 400)
    expect(r.timedOut).toBe(true)
    expect(r.error).toMatch(/timed out|stopped/)
    expectContained(r)
  })

  const bombs: Array<[string, string]> = [
    ['a doubling string', "let s = 'x'; for (;;) s += s"],
    ['an array that grows without end', 'const a = []; for (;;) a.push({ n: a.length, s: "v" + a.length })'],
    ['ArrayBuffers of a megabyte each', 'const keep = []; for (;;) keep.push(new ArrayBuffer(1 << 20))'],
    ['one ArrayBuffer of two gigabytes', 'const b = new ArrayBuffer(2 ** 31); console.log(b.byteLength)'],
    // Each job returns the next promise, so the chain holds every one: the engine runs out of memory inside a job.
    ['a chain of promise jobs that holds every promise', "const loop = () => Promise.resolve().then(loop); loop(); console.log('started')"],
    ['typed arrays filled as they come', 'const keep = []; for (let i = 0; i < 64; i++) { const b = new Float64Array(4 << 20); b.fill(i); keep.push(b) } console.log(keep.length)']
  ]
  it.each(bombs)('%s ends with a memory error', async (_name, code) => {
    const r = await run(code, 8000)
    expect(r.timedOut).toBe(false)
    expect(r.error).toMatch(/memory|length|too long|allocation/i)
    expectContained(r)
  })

  it('a check that catches running out of memory and keeps allocating is stopped at the time limit', async () => {
    const r = await run('const keep = []; for (;;) { try { keep.push(new ArrayBuffer(1 << 20)) } catch (e) {} }', 1500)
    expect(r.timedOut).toBe(true)
    expectContained(r)
  })

  it('an error whose message never ends, or is huge, still gives a short answer with what was printed', async () => {
    const endless = await run("console.log('before'); throw { get message() { for (;;) {} } }", 400)
    expect(endless).toMatchObject({ output: 'before', error: 'the check failed with an error that cannot be shown', timedOut: false })
    const huge = await run("console.log('before'); throw new Error('m'.repeat(10_000_000))")
    expect(huge.output).toBe('before')
    expect(huge.error).toBe(`${'m'.repeat(2000)} [error message cut at 2000 characters]`)
    expectContained(huge)
  })

  it('huge output is cut to the cap with the notice', async () => {
    const one = await run("console.log('y'.repeat(5_000_000))")
    expect(one.error).toBeNull()
    expect(one.output).toMatch(/^y{20000}\n\[output truncated: 4980000 more characters not shown; at most 20000 are kept\]$/)
    const many = await run("for (let i = 0; i < 200000; i++) console.log('line ' + i)")
    expect(many.output).toMatch(/\[output truncated: \d+ more characters not shown; at most 20000 are kept\]$/)
    expect(many.output.length).toBeLessThan(20_200)
  })

  it('deep recursion ends with a stack error and the same output every time', async () => {
    const code = 'let d = 0; const f = () => { d++; f() }; try { f() } catch (e) { console.log(e.message) } console.log(d > 1000)'
    const [a, b] = [await run(code), await run(code)]
    expect(a).toMatchObject({ output: 'stack overflow\ntrue', error: null })
    expect(b.output).toBe(a.output)
    const parser = await run("eval; JSON.parse('['.repeat(1e6))")
    expect(parser.error).toMatch(/stack/)
    expectContained(parser)
  })
})
