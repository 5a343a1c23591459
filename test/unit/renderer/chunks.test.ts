import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../../support/tmp'

// The renderer build's chunk graph (written by scripts/renderer-build-plugins.ts; `npm test` builds first).

interface Chunk {
  name: string
  entry: boolean
  imports: string[]
  dynamicImports: string[]
  css: string[]
  modules: Record<string, number>
}

const graphFile = join(repoRoot, 'out', 'renderer-chunks.json')
if (!existsSync(graphFile)) throw new Error(`${graphFile} is missing: run \`npm run build\` first`)
const chunks = (JSON.parse(readFileSync(graphFile, 'utf8')) as { chunks: Record<string, Chunk> }).chunks

/** The chunks a screen needs before it can show: the entry, the screen's chunk, and their static imports. */
function route(screenChunk?: string): string[] {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    chunks[file]!.imports.forEach(visit)
  }
  visit(Object.keys(chunks).find((f) => chunks[f]!.entry)!)
  if (screenChunk) visit(Object.keys(chunks).find((f) => chunks[f]!.name === screenChunk)!)
  return [...seen]
}

const modulesOf = (files: string[]) => files.flatMap((f) => Object.keys(chunks[f]!.modules))

/** Report builders, plots, statistics and their libraries, and the other curator screens (the report's schemas are
 * part of the contract and may load). */
const NOT_FOR_ANNOTATION =
  /^(src\/shared\/stats\/|src\/shared\/report\/(?!([\w-]*schema[\w-]*|input|format)\.ts$)|src\/renderer\/src\/(report|runs|import|adjudicate)\/|node_modules\/(@stdlib|d3-|papaparse))/

describe('renderer chunks', () => {
  it('gives each screen its own chunk, loaded on demand', () => {
    const entry = Object.values(chunks).find((c) => c.entry)!
    const lazy = entry.dynamicImports.map((f) => chunks[f]!.name)
    for (const screen of ['AnnotateScreen', 'ReportScreen', 'RunsScreen', 'ImportScreen', 'AdjudicationScreen']) {
      const own = Object.entries(chunks).find(([, c]) => Object.keys(c.modules).some((m) => m.endsWith(`/${screen}.tsx`)))
      expect(own, screen).toBeDefined()
      expect(own![1].entry, `${screen} is not in the entry chunk`).toBe(false)
      expect(lazy, screen).toContain(own![1].name)
    }
  })

  it('loads no report builder, plot, statistic or other screen on the annotation screen', () => {
    const annotate = modulesOf(route('AnnotateScreen'))
    expect(annotate.some((m) => m.endsWith('annotate/QueueRunner.tsx'))).toBe(true)
    expect(annotate.filter((m) => NOT_FOR_ANNOTATION.test(m))).toEqual([])
    // The report screen does carry them, so the pattern above does match what it must keep out.
    expect(modulesOf(route('report')).filter((m) => NOT_FOR_ANNOTATION.test(m)).length).toBeGreaterThan(10)
  })

  it('transfers at most 400 KB compressed for the annotation screen on first load', () => {
    const files = route('AnnotateScreen')
    const css = [...new Set(files.flatMap((f) => chunks[f]!.css))]
    const bytes = [...files, ...css, 'index.html'].reduce((sum, f) => {
      const path = join(repoRoot, 'out', 'renderer', f)
      return sum + (existsSync(`${path}.br`) ? statSync(`${path}.br`).size : statSync(path).size)
    }, 0)
    expect(bytes).toBeLessThanOrEqual(400 * 1024)
  })

  it('starts without zod and the contract schemas, the Markdown and maths pipeline or the item browser', () => {
    const start = modulesOf(route())
    expect(start.some((m) => m.endsWith('src/renderer/src/App.tsx'))).toBe(true)
    const heavy = /^(src\/shared\/contract\/[\w-]*operations\.ts$|src\/shared\/report\/|node_modules\/(zod|katex\/.*\.js|micromark|react-markdown|@tanstack|@radix-ui\/react-popover)|src\/renderer\/src\/(views\/Item|probes\/))/
    expect(start.filter((m) => heavy.test(m))).toEqual([])
    // The annotation screen does load the Markdown pipeline, so the pattern matches what it keeps out of the start.
    expect(modulesOf(route('AnnotateScreen')).filter((m) => heavy.test(m)).length).toBeGreaterThan(5)
  })

  it("announces every chunk of the annotation screen in index.html, so none waits for another's code", () => {
    const html = readFileSync(join(repoRoot, 'out', 'renderer', 'index.html'), 'utf8')
    const linked = new Set([...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="\.\/([^"]+\.js)"/g)].map((m) => m[1]))
    expect(route('AnnotateScreen').filter((f) => !linked.has(f))).toEqual([])
  })

  it('links KaTeX fonts as woff2 only, shown in a fallback face until they arrive', () => {
    const css = readFileSync(join(repoRoot, 'out', 'renderer', chunks[Object.keys(chunks).find((f) => chunks[f]!.entry)!]!.css[0]!), 'utf8')
    const faces = css.match(/@font-face\{[^}]*KaTeX[^}]*\}/g) ?? []
    expect(faces.length).toBeGreaterThan(10)
    for (const face of faces) {
      expect(face).toMatch(/font-display:swap/)
      expect(face).not.toMatch(/\.(woff|ttf)\)/)
    }
  })
})
