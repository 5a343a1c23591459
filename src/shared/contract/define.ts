import type { z } from 'zod'

/** Who may call an operation. Blinding is enforced by refusing curator operations to annotator sessions. */
export type Access = 'any' | 'curator' | 'annotator'

export interface OperationSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I
  output: O
  access: Access
  /** A short description, shown in `assay --help`-style listings and errors. */
  summary: string
}

export function op<I extends z.ZodType, O extends z.ZodType>(spec: OperationSpec<I, O>): OperationSpec<I, O> {
  return spec
}
