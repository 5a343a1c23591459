import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../../support/tmp'

// test/types/db-handles.ts holds calls the compiler must refuse, each under `@ts-expect-error` (so `tsc -b` passes
// only while they stay refused). Here the same file is checked without the directives: each such call is an error.

const FILE = join(repoRoot, 'test/types/db-handles.ts')

function errorsWithoutDirectives(): ts.Diagnostic[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(repoRoot, 'tsconfig.node.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!
  const options = { ...config.options, noEmit: true, composite: false, emitDeclarationOnly: false, incremental: false }
  const host = ts.createCompilerHost(options)
  const stripped = readFileSync(FILE, 'utf8').replace(/^\s*\/\/ @ts-expect-error.*$/gm, '')
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (name, version, ...rest) => (name === FILE ? ts.createSourceFile(name, stripped, version) : getSourceFile(name, version, ...rest))
  const program = ts.createProgram([FILE], options, host)
  return ts.getPreEmitDiagnostics(program).filter((d) => d.file?.fileName === FILE)
}

describe('read and write handles', () => {
  it('refuses a write through a readable handle: the planted calls are compile errors once their directives are gone', () => {
    const planted = (readFileSync(FILE, 'utf8').match(/^\s*\/\/ @ts-expect-error/gm) ?? []).length
    expect(planted).toBeGreaterThan(0)
    const errors = errorsWithoutDirectives()
    expect(errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0])).toEqual(
      Array(planted).fill("Argument of type 'Database' is not assignable to parameter of type 'WritableDB'.")
    )
  }, 60_000)
})
