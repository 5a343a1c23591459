import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cycles, importGraph, roomGraph, type ImportEdge } from '../../support/import-graph'
import { repoRoot, tempDir } from '../../support/tmp'

// The import graph of src/main and src/shared, read with the TypeScript parser. A runtime import is any import that
// exists when the code runs (a dynamic `import()` included: loading lazily hides a dependency, it does not remove
// it); a type-only import (`import type`, every binding marked `type`) disappears when compiled. Circles of runtime
// imports are the ones that break module loading; inside src/main type-only circles are refused too, because they
// tangle the layers just the same.

const graph = importGraph(repoRoot, ['src/main', 'src/shared'])
const runtime = (edges: ImportEdge[]) => edges.filter((edge) => !edge.typeOnly)
const inMain = (edges: ImportEdge[]) => edges.filter((edge) => edge.from.startsWith('src/main/') && edge.to.startsWith('src/main/'))
const shown = (found: string[][]) => found.map((cycle) => cycle.join(' -> ')).join('\n')

describe('import circles', () => {
  it('reads the whole tree, and counts type-only imports apart', () => {
    expect(graph.files.length).toBeGreaterThan(300)
    const typeOnly = graph.edges.filter((edge) => edge.typeOnly).length
    expect(typeOnly).toBeGreaterThan(0)
    expect(runtime(graph.edges).length).toBeGreaterThan(typeOnly)
  })

  it('has no circle of runtime imports between files of src/main and src/shared', () => {
    const found = cycles(graph.files, runtime(graph.edges))
    expect(shown(found)).toBe('')
  })

  it('has no circle between files of src/main, type-only imports included', () => {
    const found = cycles(
      graph.files.filter((file) => file.startsWith('src/main/')),
      inMain(graph.edges)
    )
    expect(shown(found)).toBe('')
  })

  it('has no circle between the rooms of src/main (its folders), type-only imports included', () => {
    const rooms = roomGraph(graph, 'src/main')
    expect(rooms.rooms).toContain('src/main/store')
    expect(shown(cycles(rooms.rooms, rooms.edges))).toBe('')
  })
})

describe('the circle finder', () => {
  let tmp: ReturnType<typeof tempDir>
  beforeEach(() => {
    tmp = tempDir()
  })
  afterEach(() => {
    tmp.cleanup()
  })

  const write = (path: string, text: string) => {
    mkdirSync(join(tmp.dir, path, '..'), { recursive: true })
    writeFileSync(join(tmp.dir, path), text)
  }

  it('names a planted circle of files and of rooms, and tells type-only and lazy imports apart', () => {
    write('src/main/a/one.ts', "import { two } from '../b/two'\nexport const one = () => two\n")
    write('src/main/b/two.ts', "import type { Three } from './three'\nexport const two = 2 as Three\n")
    write('src/main/b/three.ts', "export type Three = number\nexport const later = () => import('../a/one')\n")
    write('src/main/c/four.ts', "import { type Three } from '../b/three'\nexport const four: Three = 4\n")
    const planted = importGraph(tmp.dir, ['src/main'])
    expect(planted.edges).toContainEqual({ from: 'src/main/b/two.ts', to: 'src/main/b/three.ts', typeOnly: true })
    expect(planted.edges).toContainEqual({ from: 'src/main/c/four.ts', to: 'src/main/b/three.ts', typeOnly: true })
    expect(planted.edges).toContainEqual({ from: 'src/main/b/three.ts', to: 'src/main/a/one.ts', typeOnly: false })
    expect(cycles(planted.files, planted.edges)).toEqual([['src/main/a/one.ts', 'src/main/b/two.ts', 'src/main/b/three.ts', 'src/main/a/one.ts']])
    expect(cycles(planted.files, runtime(planted.edges))).toEqual([])
    const rooms = roomGraph(planted, 'src/main')
    expect(cycles(rooms.rooms, rooms.edges)).toEqual([['src/main/a', 'src/main/b', 'src/main/a']])
  })
})
