import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

let cachedRoot: string | undefined

/**
 * The folder holding package.json, resources/ and out/: found by walking up from this module, so it works
 * from src/ (tsx, tests), from out/main (the Electron bundle) and from an unpacked package.
 */
export function appRoot(): string {
  if (cachedRoot) return cachedRoot
  if (process.env.ASSAY_ROOT) return (cachedRoot = resolve(process.env.ASSAY_ROOT))
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const pkg = join(dir, 'package.json')
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'assay') return (cachedRoot = dir)
      } catch {
        // Not ours: keep walking.
      }
    }
    const up = dirname(dir)
    if (up === dir) throw new Error('Cannot find the Assay installation folder (package.json named "assay")')
    dir = up
  }
}

export function resourcePath(...parts: string[]): string {
  return join(appRoot(), 'resources', ...parts)
}

export function rendererDir(): string {
  return join(appRoot(), 'out', 'renderer')
}
