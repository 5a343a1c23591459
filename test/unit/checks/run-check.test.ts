import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CHECK_LIMITS, MAX_CHECKS_OVERALL, runCheck, runningChecks } from '../../../src/main/checks/run-check'
import { verifyChecks } from '../../../src/main/checks/verify'
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

describe('worked check limits', () => {
  it('stops a check that allocates ArrayBuffers outside the V8 heap', async () => {
    // 768 MB in all, well past the bound (about 250 MB of buffers) yet safe to run where the bound is missing.
    const r = await runCheck('const keep = []; for (let i = 0; i < 24; i++) { const b = new Uint8Array(32 * 1024 * 1024); b.fill(1); keep.push(b) } console.log("allocated", keep.length)', 8000)
    expect(r.output).not.toContain('allocated 24')
    expect(r.error).toMatch(/allocation failed|memory/i)
  })

  it('stops a check that fills the V8 heap', async () => {
    const r = await runCheck('const keep = []; for (;;) keep.push({ a: [1, 2, 3, 4], s: "x" + keep.length })', 8000)
    expect(r.error).toMatch(/memory/i)
  })

  it('caps the output and says so at its end', async () => {
    const r = await runCheck('for (let i = 0; i < 10000; i++) console.log("line " + i + " ".repeat(20))')
    expect(r.error).toBeNull()
    expect(r.output.length).toBeLessThan(CHECK_LIMITS.maxOutput + 200)
    expect(r.output).toMatch(/\[output truncated: \d+ more characters not shown; at most 20000 are kept\]$/)
  })

  it('caps the checks running at once, per session and overall', async () => {
    const slow = 'const t = Date.now(); while (Date.now() - t < 1500) {} console.log("done")'
    const session = {}
    const first = [runCheck(slow, 3000, session), runCheck(slow, 3000, session)]
    await expect(runCheck(slow, 3000, session)).rejects.toMatchObject({ code: 'busy' })
    const others = [runCheck(slow, 3000, {}), runCheck(slow, 3000, {})]
    expect(runningChecks()).toBe(MAX_CHECKS_OVERALL)
    await expect(runCheck(slow, 3000, {})).rejects.toMatchObject({ code: 'busy' })
    const all = await Promise.all([...first, ...others])
    expect(all.map((r) => r.output)).toEqual(['done', 'done', 'done', 'done'])
    expect(runningChecks()).toBe(0)
    expect((await runCheck('console.log(1)', 2000, session)).output).toBe('1')
  })
})

describe('re-running submitted checks', () => {
  it('re-runs several checks of one answer one after another, within the per-session cap', async () => {
    const check = (n: number) => ({ code: `console.log(${n})`, output: String(n), ran_at: '2026-01-01T00:00:00Z' })
    const judgement = { flaws: [1, 2, 3, 4].map((n) => ({ note: '', check: check(n) })) }
    const out = (await verifyChecks(judgement, {})) as { flaws: Array<{ check: { verification: string } }> }
    expect(out.flaws.map((f) => f.check.verification)).toEqual(['verified', 'verified', 'verified', 'verified'])
  })

  it('stores the checks left once an answer has spent its re-run time as unverified, saying why, without running them', async () => {
    const check = (n: number) => ({ code: `console.log(${n})`, output: String(n), ran_at: '2026-01-01T00:00:00Z' })
    const judgement = { flaws: [1, 2, 3, 4, 5].map((n) => ({ note: '', check: check(n) })) }
    const ran: string[] = []
    // Each re-run takes 40 ms; the budget of 100 ms is spent after the third.
    const slowRun = async (code: string) => {
      ran.push(code)
      await new Promise((r) => setTimeout(r, 40))
      return { output: code.slice(12, -1), error: null, ms: 40, timedOut: false }
    }
    const out = (await verifyChecks(judgement, {}, slowRun, 100)) as { flaws: Array<{ check: { verification: string; output: string; verify_note?: string } }> }
    expect(out.flaws.map((f) => f.check.verification)).toEqual(['verified', 'verified', 'verified', 'unverified', 'unverified'])
    expect(ran).toHaveLength(3)
    expect(out.flaws[3]!.check).toMatchObject({ output: '4', verify_note: "not re-run: this answer's checks used the 0.1 s allowed for re-running them" })
  })
})
