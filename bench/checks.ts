import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { runCheck } from '../src/main/checks/run-check'
import { median, type BenchFigures } from './measure'

const root = join(import.meta.dirname, '..')

/**
 * A worked check from request to answer, through the real path (a check process under its limits, QuickJS compiled
 * to WebAssembly inside it), for a snippet that only prints (the start-up cost) and for the demo's counterexample
 * and a loop-heavy snippet (the run cost). Baseline in the same run: the engine checks used before, a Node `vm`
 * context in a Node child with the same flags, which is fast but not a boundary (a snippet reached the host realm
 * through it).
 */
export async function benchChecks(rounds = Number(process.env.BENCH_ROUNDS ?? 9)): Promise<BenchFigures> {
  const snippets: Record<string, string> = {
    print: 'console.log(1 + 1)',
    demo: readFileSync(join(root, 'resources', 'demo', 'checks', 'formula-counterexample.js'), 'utf8'),
    loop: 'let s = 0; for (let i = 0; i < 3e6; i++) s += Math.sqrt(i) % 7; const a = []; for (let i = 0; i < 1e5; i++) a.push({ v: (i * 7919) % 1e5 }); a.sort((x, y) => x.v - y.v); console.log(s.toFixed(2), a[0].v)'
  }
  const figures: BenchFigures = {}
  for (const [name, code] of Object.entries(snippets)) {
    const quickjs: number[] = []
    const vm: number[] = []
    for (let i = 0; i < rounds; i++) {
      let t = performance.now()
      const r = await runCheck(code, 10_000)
      if (r.error) throw new Error(`bench check ${name} failed: ${r.error}`)
      quickjs.push(performance.now() - t)
      t = performance.now()
      await vmChild(code)
      vm.push(performance.now() - t)
    }
    figures[`${name}_quickjs_ms`] = Math.round(median(quickjs))
    figures[`${name}_vm_baseline_ms`] = Math.round(median(vm))
  }
  return figures
}

/** The earlier engine, reduced to its cost: a Node child evaluating the snippet in a fresh vm context. */
function vmChild(code: string): Promise<void> {
  const source = `const vm = require('node:vm'); const out = []; const c = vm.createContext({ console: { log: (...a) => out.push(a.join(' ')) } }, { codeGeneration: { strings: false, wasm: false } }); vm.runInContext(${JSON.stringify(code)}, c, { timeout: 10000 }); process.stdout.write(JSON.stringify(out))`
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', 'ulimit -v 1048576 && exec "$0" "$@"', process.execPath, '--max-old-space-size=64', '--max-semi-space-size=8', '--disallow-code-generation-from-strings', '-e', source], { env: {}, stdio: ['ignore', 'ignore', 'ignore'] })
    child.on('error', reject)
    child.on('close', () => resolve())
  })
}
