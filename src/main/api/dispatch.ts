import { z } from 'zod'
import { AssayError, BadDataError, zodIssuesToLocations } from '../../shared/errors'
import type { OperationName } from '../../shared/contract/operations'
import { operationSpec } from '../../shared/contract/operation-specs'
import type { OperationSpec } from '../../shared/contract/define'
import type { Envelope } from '../../shared/contract/client'
import type { ApiContext } from './context'
import { loadHandler } from './handlers/load'
import { withProjectInstruments } from '../instruments/scope'

/**
 * The single entry for every transport: unknown operations and invalid input become typed errors,
 * access is checked against the session, and the output is validated against the contract.
 */
export async function dispatch(ctx: ApiContext, name: string, rawInput: unknown): Promise<Envelope> {
  try {
    // Only the operation's own group of schemas is built (a command reading the counts builds no report schema).
    const spec = await operationSpec(name)
    if (!spec) throw new AssayError('unknown_operation', `Unknown operation "${name}"`)
    // The operation sees its own project's declared instruments, whatever else this process has open.
    const value = await withProjectInstruments(ctx.project, () => invoke(ctx, name as OperationName, spec, rawInput))
    return { ok: true, value }
  } catch (e) {
    return { ok: false, error: toAssayError(e).toPayload() }
  }
}

async function invoke(ctx: ApiContext, name: OperationName, spec: OperationSpec, rawInput: unknown): Promise<unknown> {
  if (spec.access === 'curator' && ctx.session.role !== 'curator') {
    throw new AssayError('forbidden', `"${name}" is for curators; this session annotates blind`)
  }
  if (spec.access === 'annotator' && !ctx.session.annotator) {
    throw new AssayError('forbidden', `"${name}" needs an annotator: choose who is annotating first`)
  }
  const parsed = (spec.input as z.ZodType).safeParse(rawInput ?? {})
  if (!parsed.success) {
    throw new AssayError('invalid_input', `Invalid input for "${name}"`, zodIssuesToLocations(parsed.error.issues))
  }
  const handler = (await loadHandler(name)) as (input: unknown, ctx: ApiContext) => unknown
  const result = await handler(parsed.data, ctx)
  const out = (spec.output as z.ZodType).safeParse(result)
  if (!out.success) {
    throw new AssayError('internal', `"${name}" produced output that breaks the contract`, zodIssuesToLocations(out.error.issues))
  }
  return out.data
}

/**
 * Gives every failure a code a client can act on: a locked file is `busy` (nothing was written; retry), a row that
 * lacks what an operation needs is `bad_data`, a broken constraint is `conflict`. Only what is left — a defect in
 * Assay itself — is `internal`.
 */
export function toAssayError(e: unknown): AssayError {
  if (e instanceof AssayError) return e
  if (e instanceof z.ZodError) return new AssayError('invalid_input', 'Invalid data', zodIssuesToLocations(e.issues))
  const message = e instanceof Error ? e.message : String(e)
  const sqlite = sqliteCode(e)
  if (sqlite === 'SQLITE_BUSY' || sqlite === 'SQLITE_LOCKED' || sqlite?.startsWith('SQLITE_BUSY_') || sqlite?.startsWith('SQLITE_LOCKED_')) {
    return new AssayError('busy', `The project file is busy (another program is writing to it); nothing was changed, try again. (${message})`)
  }
  if (sqlite?.startsWith('SQLITE_CONSTRAINT')) return new AssayError('conflict', message)
  if (sqlite === 'SQLITE_CORRUPT' || sqlite === 'SQLITE_NOTADB') return new AssayError('not_a_project', message)
  if (sqlite === 'SQLITE_FULL' || sqlite === 'SQLITE_READONLY' || sqlite?.startsWith('SQLITE_READONLY_')) return new AssayError('conflict', message)
  if (e instanceof BadDataError || e instanceof SyntaxError) {
    // SyntaxError here is JSON.parse over a stored value: the row is malformed, the code reading it is not.
    return new AssayError('bad_data', message)
  }
  return new AssayError('internal', message)
}

function sqliteCode(e: unknown): string | null {
  if (!(e instanceof Error) || e.name !== 'SqliteError') return null
  const code = (e as Error & { code?: unknown }).code
  return typeof code === 'string' ? code : null
}
