import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** A fresh temporary folder, removed by the returned cleanup. */
export function tempDir(prefix = 'assay-test-'): { dir: string; file(name: string): string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, file: (name) => join(dir, name), cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

/** The repository root and the shared folder beside it (CI clones the repo with shared/ next to it). */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url))
export const sharedDir = join(repoRoot, '..', 'shared')
