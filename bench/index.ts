// `npm run bench`: prints JSON figures, each beside a baseline measured in the same run.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { benchStore } from './store'
import { benchRunner } from './runner'
import { benchReport } from './report'
import { benchAnnotate } from './annotate'
import { benchImport } from './import'
import { benchCli } from './cli'
import { benchOpen } from './open'
import { benchChecks } from './checks'

const only = process.argv[2]
const dir = mkdtempSync(join(tmpdir(), 'assay-bench-'))
const results: Record<string, unknown> = { node: process.version, started_at: new Date().toISOString() }
try {
  if (!only || only === 'store') results.store = await benchStore(dir)
  if (!only || only === 'import') results.import = await benchImport(dir)
  if (!only || only === 'runner') results.runner = await benchRunner(dir)
  if (!only || only === 'report') results.report = await benchReport(dir)
  if (!only || only === 'cli') results.cli = await benchCli(dir)
  if (!only || only === 'open') results.open = await benchOpen(dir)
  if (!only || only === 'checks') results.checks = await benchChecks()
  if (!only || only === 'annotate') results.annotate = await benchAnnotate(dir, Number(process.env.BENCH_ITEMS ?? 100_000), Number(process.env.BENCH_SUBMISSIONS ?? 500))
} finally {
  rmSync(dir, { recursive: true, force: true })
}
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`)
