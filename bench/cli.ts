import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { Project } from '../src/main/store/project'
import { insertItems, type NewItem } from '../src/main/store/items'
import { median, type BenchFigures } from './measure'

const root = join(import.meta.dirname, '..')
const bin = join(root, 'bin', 'assay.mjs')

/** Wall time of one child process from spawn to exit, in ms (what a person at the shell waits). */
function wall(args: string[]): number {
  const t = performance.now()
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' })
  const ms = performance.now() - t
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited with ${r.status}: ${r.stderr}`)
  return ms
}

async function projectOf(path: string, items: number): Promise<void> {
  const project = await Project.create(path)
  if (items === 0) {
    const { loadDemo } = await import('../src/main/demo/load-demo')
    await loadDemo(project)
  } else {
    const rows: NewItem[] = Array.from({ length: items }, (_, i) => ({
      kind: 'idea' as const,
      externalId: `idea-${i}`,
      set: i % 2 ? 'even' : 'odd',
      split: i % 5 ? ('dev' as const) : ('test' as const),
      payload: { idea: `An idea about topic ${i % 97} with a measurable prediction number ${i}.` }
    }))
    project.write((db) => insertItems(db, rows))
  }
  project.close()
}

/**
 * The command line against bare Node opening the same project file with better-sqlite3, each measured as the
 * median of interleaved rounds of fresh processes in the same run. Target: every command ≤ 2× the baseline.
 */
export async function benchCli(dir: string, rounds = Number(process.env.BENCH_ROUNDS ?? 15)): Promise<BenchFigures> {
  // The compiled command line is what users run; build it if a source is newer.
  wall([join(root, 'scripts', 'build-cli.mjs'), '--if-stale', '--quiet'])
  const sizes: Array<{ name: string; items: number }> = [
    { name: 'demo', items: 0 },
    { name: 'items_100k', items: 100_000 }
  ]
  const figures: BenchFigures = { rounds, target_ratio: 2 }
  for (const size of sizes) {
    const file = join(dir, `cli-${size.name}.assay`)
    await projectOf(file, size.items)
    const cases: Record<string, string[]> = {
      baseline_node_open_close: ['-e', `require('better-sqlite3')(${JSON.stringify(file)}).close()`],
      help: [bin, '--help'],
      info_json: [bin, 'info', file, '--json'],
      judge_help: [bin, 'judge', '--help'],
      report_help: [bin, 'report', '--help'],
      import_help: [bin, 'import', '--help'],
      serve_help: [bin, 'serve', '--help']
    }
    const ms: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]))
    wall(cases.help!) // warm the file cache once
    for (let r = 0; r < rounds; r++) for (const [k, args] of Object.entries(cases)) ms[k]!.push(wall(args))
    const base = median(ms.baseline_node_open_close!)
    figures[`${size.name}_baseline_ms`] = round1(base)
    for (const k of Object.keys(cases)) {
      if (k === 'baseline_node_open_close') continue
      figures[`${size.name}_${k}_ms`] = round1(median(ms[k]!))
      figures[`${size.name}_${k}_ratio`] = round2(median(ms[k]!) / base)
    }
  }
  return figures
}

const round1 = (x: number) => Math.round(x * 10) / 10
const round2 = (x: number) => Math.round(x * 100) / 100
