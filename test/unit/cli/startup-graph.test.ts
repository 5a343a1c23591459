import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../../support/tmp'

// The compiled command line (built by the test setup from the current sources) must load at start only the
// command definitions: the modules behind each command come in by dynamic import when that command runs.

interface Metafile {
  outputs: Record<string, { imports: Array<{ path: string; kind: string; external?: boolean }>; inputs: Record<string, unknown> }>
}

const meta = JSON.parse(readFileSync(join(repoRoot, 'out', 'cli', 'meta.json'), 'utf8')) as Metafile

/** Output files reachable from `from` through static imports, and the source modules and packages they hold. */
function staticGraph(from: string): { inputs: Set<string>; packages: Set<string> } {
  const seen = new Set<string>()
  const packages = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const i of meta.outputs[file]!.imports) {
      if (i.kind !== 'import-statement') continue
      if (i.external) packages.add(i.path)
      else visit(i.path)
    }
  }
  visit(from)
  const inputs = new Set([...seen].flatMap((f) => Object.keys(meta.outputs[f]!.inputs)))
  return { inputs, packages }
}

describe('the compiled command line', () => {
  const start = staticGraph('out/cli/main.mjs')

  it('loads no model SDK, report, audit, importer, exporter, packet, runner or web server code at start', () => {
    const heavy = [...start.inputs].filter((p) =>
      /^src\/(main\/(runner|providers\/(?!types)|audit|import\/(?!types)|packets|web|api|demo\/(?!demo-path))|shared\/(report\/(?!format|calibration-lines)|stats|instruments\/(?!types)))/.test(p) ||
      /^src\/main\/export\/(?!kinds|output-file)/.test(p)
    )
    expect(heavy).toEqual([])
    expect([...start.packages].filter((p) => /openai|anthropic|genai|papaparse|d3-/.test(p))).toEqual([])
  })

  it('reaches the heavy modules through dynamic imports', () => {
    const all = new Set(Object.values(meta.outputs).flatMap((o) => Object.keys(o.inputs)))
    for (const m of ['src/main/runner/index.ts', 'src/main/web/server.ts', 'src/main/web/openapi.ts', 'src/main/report/index.ts', 'src/main/import/index.ts', 'src/shared/report/build.ts']) {
      expect(all.has(m), m).toBe(true)
      expect(start.inputs.has(m), m).toBe(false)
    }
  })

  it('bundles only the English zod locale', () => {
    const locales = [...new Set(Object.values(meta.outputs).flatMap((o) => Object.keys(o.inputs)))].filter((p) => /zod\/v4\/locales\/(?!index)/.test(p))
    expect(locales.map((p) => p.replace(/.*\//, ''))).toEqual(['en.js'])
  })
})
