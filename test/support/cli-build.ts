import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { repoRoot } from './tmp'

/**
 * Vitest global setup: tests that spawn `bin/assay.mjs` run the compiled command line, so it is rebuilt first
 * whenever a source is newer than the build — the suite always exercises the current sources.
 */
export default function buildCli(): void {
  execFileSync(process.execPath, [join(repoRoot, 'scripts', 'build-cli.mjs'), '--if-stale', '--quiet'], { stdio: 'inherit' })
}
