import { join } from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../../support/tmp'

// The layering rule of eslint.config.js, run through ESLint's own API: planted files (linted as text, as if they
// lay in the tree) show it fires on an upward import, and the tree as it is passes.

const eslint = new ESLint({ cwd: repoRoot })
const RULE = 'assay/main-layers'

async function layerProblems(path: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: join(repoRoot, path) })
  return result!.messages.filter((m) => m.ruleId === RULE).map((m) => m.message)
}

describe('the layers of src/main', () => {
  it('refuses a store module that imports a domain room, even for a type', async () => {
    const problems = await layerProblems('src/main/store/planted.ts', "import { blindedAnswer } from '../annotation/blinded'\nexport const x = blindedAnswer\n")
    expect(problems).toEqual([expect.stringContaining('store is in the store layer and may not import annotation of the domain layer')])
    expect(await layerProblems('src/main/store/schema/planted.ts', "import type { Judge } from '../../runner/judges'\nexport type X = Judge\n")).toHaveLength(1)
    expect(await layerProblems('src/main/store/planted.ts', "import { writeOutputFile } from '../files/output-file'\nexport const x = writeOutputFile\n")).toHaveLength(1)
  })

  it('refuses a domain room that imports a front door, statically or lazily', async () => {
    expect(await layerProblems('src/main/annotation/planted.ts', "import type { ApiContext } from '../api/context'\nexport type X = ApiContext\n")).toEqual([
      expect.stringContaining('annotation is in the domain layer and may not import api of the front doors layer')
    ])
    expect(await layerProblems('src/main/runner/planted.ts', "export const later = () => import('../cli/main')\n")).toHaveLength(1)
    expect(await layerProblems('src/main/export/planted.ts', "export { startServer } from '../web/server'\n")).toHaveLength(1)
    expect(await layerProblems('src/main/files/planted.ts', "import { assignItems } from '../annotation/assign'\nexport const x = assignItems\n")).toHaveLength(1)
  })

  it('lets each layer import its own and the layers below', async () => {
    const allowed = [
      ['src/main/store/planted.ts', "import { openDatabase } from './database'\nimport { AssayError } from '../../shared/errors'\nexport const x = [openDatabase, AssayError]\n"],
      ['src/main/annotation/planted.ts', "import { getItemByExternalId } from '../store/items'\nimport { blindedAnswer } from './blinded'\nimport { toCsv } from '../files/table'\nexport const x = [getItemByExternalId, blindedAnswer, toCsv]\n"],
      ['src/main/packets/planted.ts', "import { blindedAnswer } from '../annotation/blinded'\nexport const x = blindedAnswer\n"],
      ['src/main/cli/planted.ts', "import { handlers } from '../api/handlers'\nimport { exportData } from '../export'\nexport const x = [handlers, exportData]\n"]
    ]
    for (const [path, text] of allowed) expect(await layerProblems(path!, text!), path).toEqual([])
  })

  it('passes on the tree', async () => {
    const results = await eslint.lintFiles(['src/main'])
    expect(results.length).toBeGreaterThan(200)
    const problems = results.flatMap((r) => r.messages.filter((m) => m.ruleId === RULE).map((m) => `${r.filePath}:${m.line} ${m.message}`))
    expect(problems).toEqual([])
  }, 60_000)
})
