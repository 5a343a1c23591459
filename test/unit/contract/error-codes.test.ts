import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { toAssayError } from '../../../src/main/api/dispatch'
import { MissingContextError } from '../../../src/shared/instruments/common'
import { TemplateRenderError } from '../../../src/shared/templates/render'
import { TemplateManifestError } from '../../../src/shared/templates/manifest'
import { parsePythonLiteral } from '../../../src/main/import/python-literal'

function sqliteError(sql: string[]): unknown {
  const db = new Database(':memory:')
  try {
    for (const s of sql) db.exec(s)
  } catch (e) {
    return e
  } finally {
    db.close()
  }
  throw new Error('expected the statements to fail')
}

describe('error codes clients can act on', () => {
  it('calls data that lacks what an operation needs `bad_data`, not `internal`', () => {
    expect(toAssayError(new MissingContextError('This instrument needs the task of the hypothesis set in payload.task.')).code).toBe('bad_data')
    expect(toAssayError(new TemplateRenderError('match-judge@1', ['missing value for [HYPOTHESIS]'])).code).toBe('bad_data')
    expect(toAssayError(new TemplateManifestError(['no template match-judge@9'])).code).toBe('bad_data')
    expect(toAssayError(new SyntaxError('Unexpected end of JSON input')).code).toBe('bad_data')
    const unparsable = (() => {
      try {
        parsePythonLiteral("{'a': ")
      } catch (e) {
        return e
      }
    })()
    expect(toAssayError(unparsable).code).toBe('bad_data')
  })

  it('calls a broken constraint `conflict`', () => {
    const e = sqliteError(['CREATE TABLE t (id INTEGER PRIMARY KEY)', 'INSERT INTO t VALUES (1)', 'INSERT INTO t VALUES (1)'])
    expect(toAssayError(e).code).toBe('conflict')
  })

  it('keeps `internal` for defects', () => {
    expect(toAssayError(new TypeError("Cannot read properties of undefined (reading 'x')")).code).toBe('internal')
  })
})
