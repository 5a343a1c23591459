import { z } from 'zod'

export const ERROR_CODES = [
  'invalid_input',
  'unknown_operation',
  'not_found',
  'forbidden',
  'conflict',
  'newer_schema',
  'not_a_project',
  'in_use',
  'import_failed',
  'invalid_answer',
  'provider',
  'cancelled',
  /** The project file is locked by another writer for longer than the busy timeout; nothing was written, retry. */
  'busy',
  /** Stored or imported data does not have what an operation needs (a bad row, not a bug). */
  'bad_data',
  /** A request, an answer or one of its fields is larger than the project allows. */
  'too_large',
  /** Too many submissions in a short time from one session. */
  'rate_limited',
  'internal'
] as const
export type ErrorCode = (typeof ERROR_CODES)[number]

/** Where a problem is: a file, a line or row, a field path. */
export const errorLocationSchema = z.object({
  file: z.string().optional(),
  line: z.number().int().optional(),
  field: z.string().optional(),
  message: z.string()
})
export type ErrorLocation = z.infer<typeof errorLocationSchema>

export const errorPayloadSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  details: z.array(errorLocationSchema).optional()
})
export type ErrorPayload = z.infer<typeof errorPayloadSchema>

/**
 * Thrown where stored or imported data lacks what an operation needs or does not parse (a bad row, not a bug).
 * The code that finds the problem stays where it is; the boundary that turns errors into `AssayError`s
 * recognises this one class and calls it `bad_data`, without knowing every module that can throw it.
 */
export class BadDataError extends Error {}

/** The one error type that crosses process boundaries: serialisable, with a stable code. */
export class AssayError extends Error {
  readonly code: ErrorCode
  readonly details: ErrorLocation[] | undefined
  constructor(code: ErrorCode, message: string, details?: ErrorLocation[]) {
    super(message)
    this.name = 'AssayError'
    this.code = code
    this.details = details
  }
  toPayload(): ErrorPayload {
    return this.details ? { code: this.code, message: this.message, details: this.details } : { code: this.code, message: this.message }
  }
  static fromPayload(p: ErrorPayload): AssayError {
    return new AssayError(p.code, p.message, p.details)
  }
}

export function isAssayError(e: unknown): e is AssayError {
  return e instanceof AssayError
}

/** Formats a location the way compilers do: file:line: field: message. */
export function formatLocation(d: ErrorLocation): string {
  const where = [d.file, d.line !== undefined ? String(d.line) : undefined].filter(Boolean).join(':')
  return [where, d.field, d.message].filter(Boolean).join(': ')
}

/** zod issues as error locations, e.g. `a.markdown: expected string`. */
export function zodIssuesToLocations(issues: ReadonlyArray<z.core.$ZodIssue>, base: Omit<ErrorLocation, 'message'> = {}): ErrorLocation[] {
  return issues.map((i) => {
    const path = i.path.map(String).join('.')
    const field = [base.field, path].filter(Boolean).join('.')
    return { ...base, ...(field ? { field } : {}), message: i.message }
  })
}
