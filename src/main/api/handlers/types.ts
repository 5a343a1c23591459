import type { OperationName, OperationOutput, OperationParsedInput } from '../../../shared/contract/operations'
import type { ApiContext } from '../context'

export type Handler<K extends OperationName> = (
  input: OperationParsedInput<K>,
  ctx: ApiContext
) => OperationOutput<K> | Promise<OperationOutput<K>>

/** A group of handlers for some operations; the compiler checks names and types against the contract. */
export type HandlerGroup<K extends OperationName> = { [P in K]: Handler<P> }
