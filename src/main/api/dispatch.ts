import { z } from 'zod'
import { AssayError, zodIssuesToLocations } from '../../shared/errors'
import { isOperationName, operations, type OperationName } from '../../shared/contract/operations'
import type { Envelope } from '../../shared/contract/client'
import type { ApiContext } from './context'
import { handlers } from './handlers'

/**
 * The single entry for every transport: unknown operations and invalid input become typed errors,
 * access is checked against the session, and the output is validated against the contract.
 */
export async function dispatch(ctx: ApiContext, name: string, rawInput: unknown): Promise<Envelope> {
  try {
    if (!isOperationName(name)) throw new AssayError('unknown_operation', `Unknown operation "${name}"`)
    const value = await invoke(ctx, name, rawInput)
    return { ok: true, value }
  } catch (e) {
    return { ok: false, error: toAssayError(e).toPayload() }
  }
}

async function invoke(ctx: ApiContext, name: OperationName, rawInput: unknown): Promise<unknown> {
  const spec = operations[name]
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
  const handler = handlers[name] as (input: unknown, ctx: ApiContext) => unknown
  const result = await handler(parsed.data, ctx)
  const out = (spec.output as z.ZodType).safeParse(result)
  if (!out.success) {
    throw new AssayError('internal', `"${name}" produced output that breaks the contract`, zodIssuesToLocations(out.error.issues))
  }
  return out.data
}

function toAssayError(e: unknown): AssayError {
  if (e instanceof AssayError) return e
  if (e instanceof z.ZodError) return new AssayError('invalid_input', 'Invalid data', zodIssuesToLocations(e.issues))
  const message = e instanceof Error ? e.message : String(e)
  return new AssayError('internal', message)
}
