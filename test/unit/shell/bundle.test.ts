import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../../support/tmp'

const preload = join(repoRoot, 'out', 'preload', 'index.cjs')

// npm test builds before it runs the suite; a bare `vitest run` on an unbuilt tree has nothing to check.
describe.skipIf(!existsSync(preload))('built desktop bundles (skipped: not built; run npm run build)', () => {
  it('gives the sandboxed preload nothing to require but electron', () => {
    const required = [...readFileSync(preload, 'utf8').matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1])
    expect([...new Set(required)]).toEqual(['electron'])
  })

  it('keeps the renderer free of Node and provider SDK code', () => {
    const assets = join(repoRoot, 'out', 'renderer', 'assets')
    const html = readFileSync(join(repoRoot, 'out', 'renderer', 'index.html'), 'utf8')
    expect(html).toContain('Content-Security-Policy')
    const scripts = [...html.matchAll(/src="\.?\/?assets\/([^"]+\.js)"/g)].map((m) => readFileSync(join(assets, m[1]!), 'utf8'))
    expect(scripts.length).toBeGreaterThan(0)
    for (const js of scripts) {
      // Module syntax only (a doc comment of a bundled library mentions `import process from 'node:process'`).
      expect(js).not.toMatch(/^\s*import[^\n*]*from\s*["']node:|\brequire\(["']node:|\bimport\(["']node:/m)
      expect(js).not.toContain('better-sqlite3')
    }
  })
})
