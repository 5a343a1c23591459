import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCheck } from '../../../src/main/checks/run-check'
import { repoRoot } from '../../support/tmp'

describe('worked checks', () => {
  it('runs a snippet and captures what it prints', async () => {
    const r = await runCheck('const obj = (n) => n.reduce((s, x) => s + x, 0); console.log("sum", obj([1, 2, 3]))')
    expect(r).toMatchObject({ output: 'sum 6', error: null, timedOut: false })
  })

  it('runs the demo counterexample to the "optimal" allocation formula', async () => {
    const code = readFileSync(join(repoRoot, 'resources', 'demo', 'checks', 'formula-counterexample.js'), 'utf8')
    const r = await runCheck(code)
    expect(r.error).toBeNull()
    expect(r.output).toMatch(/6\.70/)
    expect(r.output).toMatch(/6\.00/)
  })

  it('stops an endless loop at the time limit', async () => {
    const r = await runCheck('while (true) {}', 300)
    expect(r.error).toMatch(/timed out|stopped/)
    expect(r.ms).toBeLessThan(5000)
  })

  it('has no access to require, process, fetch or the file system', async () => {
    const r = await runCheck('console.log(typeof require, typeof process, typeof fetch, typeof setTimeout, typeof globalThis.Buffer)')
    expect(r.output).toBe('undefined undefined undefined undefined undefined')
    const escape = await runCheck('console.log(this.constructor.constructor("return process")())')
    expect(escape.output).not.toMatch(/object/)
    expect(escape.error).not.toBeNull()
    const viaConsole = await runCheck('console.log(console.log.constructor("return typeof process")())')
    expect(viaConsole.output).not.toMatch(/object/)
    expect(viaConsole.error).not.toBeNull()
  })

  it('reports a syntax error as an error, not a crash', async () => {
    const r = await runCheck('console.log(')
    expect(r.error).toMatch(/SyntaxError|Unexpected/i)
  })
})
