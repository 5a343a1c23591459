import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { importGraph, type ImportGraph } from '../../support/import-graph'
import { repoRoot, tempDir } from '../../support/tmp'

// The command line reaches project data only through the contract: a command opens its file with src/main/cli/contract.ts
// and calls operations through the dispatcher, so the schemas and access rules of IPC and HTTP apply to it too. No
// other module of src/main/cli may import src/main/store, for a type or lazily, except those named here with why.

const CLI_STORE_EXCEPTIONS: Record<string, string> = {
  // The one door: opens the project file and gives commands the contract's operations.
  'src/main/cli/contract.ts': 'opens the project file and dispatches operations',
  // Creating a project file is what makes a project to call operations on; there is none before it.
  'src/main/cli/commands/new.ts': 'creates a new project file',
  // `serve` holds the project open for the HTTP server's whole life and hands it to the server (which dispatches).
  'src/main/cli/commands/serve.ts': 'opens the project for the server it starts'
}

/** Imports from a module of src/main/cli into src/main/store, type-only and dynamic ones included, as `from -> to`. */
function cliStoreImports(graph: ImportGraph, allowed: Record<string, string>): string[] {
  return graph.edges
    .filter((edge) => edge.from.startsWith('src/main/cli/') && edge.to.startsWith('src/main/store/') && !(edge.from in allowed))
    .map((edge) => `${edge.from} -> ${edge.to}`)
}

describe('the command line', () => {
  it('imports the store only from the modules named as exceptions', () => {
    const graph = importGraph(repoRoot, ['src/main'])
    expect(graph.files).toContain('src/main/cli/contract.ts')
    expect(cliStoreImports(graph, CLI_STORE_EXCEPTIONS)).toEqual([])
  })

  it('names only exceptions that exist and still need the store', () => {
    const graph = importGraph(repoRoot, ['src/main'])
    const stale = Object.keys(CLI_STORE_EXCEPTIONS).filter((file) => !graph.edges.some((edge) => edge.from === file && edge.to.startsWith('src/main/store/')))
    expect(stale).toEqual([])
  })

  describe('on a planted tree', () => {
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

    it('names a command that imports the store, for a value, a type or lazily', () => {
      write('src/main/store/project.ts', 'export class Project {}\n')
      write('src/main/store/annotators.ts', 'export type Row = { id: number }\n')
      write('src/main/cli/contract.ts', "import { Project } from '../store/project'\nexport const open = () => new Project()\n")
      write('src/main/cli/commands/ok.ts', "import { open } from '../contract'\nexport const ok = open\n")
      write('src/main/cli/commands/direct.ts', "import { Project } from '../../store/project'\nexport const p = new Project()\n")
      write('src/main/cli/commands/typed.ts', "import type { Row } from '../../store/annotators'\nexport const r: Row = { id: 1 }\n")
      write('src/main/cli/commands/lazy.ts', "export const later = () => import('../../store/project')\n")
      const planted = importGraph(tmp.dir, ['src/main'])
      expect(cliStoreImports(planted, { 'src/main/cli/contract.ts': 'the door' }).sort()).toEqual([
        'src/main/cli/commands/direct.ts -> src/main/store/project.ts',
        'src/main/cli/commands/lazy.ts -> src/main/store/project.ts',
        'src/main/cli/commands/typed.ts -> src/main/store/annotators.ts'
      ])
    })
  })
})
