import { existsSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

// The source documents live in shared/seeds beside the repository (CI lays a copy of shared/ next to the clone).
// ASSAY_SEEDS_DIR overrides the place. Where they are absent, the tests check the digests pinned in
// source-digests.json instead and say which comparisons they skipped.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..')

export const SEED_FILES = {
  '001': '001_a9fefae456f2bd34.txt',
  '002': '002_c9e2ec9e0da4b62c.txt',
  '003': '003_5b4c9b78511f154c.txt'
} as const
export type SeedKey = keyof typeof SEED_FILES

export function seedsDir(): string {
  return process.env.ASSAY_SEEDS_DIR ?? resolve(repoRoot, '../shared/seeds')
}

const cache = new Map<SeedKey, string>()

export function readSeed(key: SeedKey): string {
  const cached = cache.get(key)
  if (cached !== undefined) return cached
  const path = resolve(seedsDir(), SEED_FILES[key])
  if (!existsSync(path)) throw new Error(`source document ${path} not found (set ASSAY_SEEDS_DIR)`)
  const text = readFileSync(path, 'utf8')
  cache.set(key, text)
  return text
}

/**
 * A place in a seed: walk the `after` anchors in turn (each searched from the end of the previous one); the text
 * starts right after the last anchor, or at `startAt` (inclusive) when given; it ends before the first `to` that
 * follows, or at the end of the document when `to` is null.
 */
export interface SeedLocation {
  seed: SeedKey
  after: readonly string[]
  startAt?: string
  to: string | null
}

export function locate(loc: SeedLocation): string {
  const text = readSeed(loc.seed)
  let pos = 0
  for (const anchor of loc.after) {
    const at = text.indexOf(anchor, pos)
    if (at < 0) throw new Error(`anchor ${JSON.stringify(anchor)} not found in seed ${loc.seed} after offset ${pos}`)
    pos = at + anchor.length
  }
  if (loc.startAt !== undefined) {
    const at = text.indexOf(loc.startAt, pos)
    if (at < 0) throw new Error(`start ${JSON.stringify(loc.startAt)} not found in seed ${loc.seed}`)
    pos = at
  }
  if (loc.to === null) return text.slice(pos)
  const end = text.indexOf(loc.to, pos)
  if (end < 0) throw new Error(`end ${JSON.stringify(loc.to)} not found in seed ${loc.seed} after offset ${pos}`)
  return text.slice(pos, end)
}
