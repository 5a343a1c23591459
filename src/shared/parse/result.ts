/** What every answer parser returns: a value, or why there is none. Parsers never throw. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string }

export function parsed<T>(value: T): ParseResult<T> {
  return { ok: true, value }
}

export function failed<T = never>(error: string): ParseResult<T> {
  return { ok: false, error }
}
