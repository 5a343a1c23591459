import type { z } from 'zod'

/**
 * Whether parsing with a schema can give back anything but a copy of its input: a default filled in, a transform,
 * a coercion, a check that rewrites (trim, case), keys stripped by a plain object. Where it cannot, a stored payload
 * that was validated on its way in is read as stored, without a second parse of every item. Conservative: a kind of
 * schema not known here counts as changing.
 */
export function parseCanChange(schema: z.core.$ZodType): boolean {
  return changes(schema, new Set())
}

/** Leaves whose successful parse returns the input as given. */
const KEPT_AS_GIVEN = new Set(['string', 'number', 'boolean', 'bigint', 'enum', 'literal', 'null', 'undefined', 'unknown', 'any', 'never', 'nan', 'date', 'template_literal'])

/** Wrappers that change nothing themselves: their inner schema decides. */
const WRAPPERS = new Set(['optional', 'nullable', 'nonoptional'])

interface Def {
  type: string
  coerce?: boolean
  checks?: Array<{ _zod: { def: { check: string } } }>
  innerType?: z.core.$ZodType
  element?: z.core.$ZodType
  shape?: Record<string, z.core.$ZodType>
  catchall?: z.core.$ZodType
  options?: z.core.$ZodType[]
  left?: z.core.$ZodType
  right?: z.core.$ZodType
  keyType?: z.core.$ZodType
  valueType?: z.core.$ZodType
  items?: z.core.$ZodType[]
  rest?: z.core.$ZodType | null
}

function changes(schema: z.core.$ZodType, seen: Set<z.core.$ZodType>): boolean {
  if (seen.has(schema)) return false
  seen.add(schema)
  const def = schema._zod.def as unknown as Def
  if (def.coerce) return true
  if (def.checks?.some((c) => c._zod.def.check === 'overwrite')) return true
  const any = (schemas: ReadonlyArray<z.core.$ZodType | null | undefined>): boolean => schemas.some((s) => s != null && changes(s, seen))
  if (KEPT_AS_GIVEN.has(def.type)) return false
  if (WRAPPERS.has(def.type)) return any([def.innerType])
  switch (def.type) {
    case 'object':
      // Without a catch-all a plain object strips the keys it does not name.
      return def.catchall === undefined || any([...Object.values(def.shape ?? {}), def.catchall])
    case 'array':
      return any([def.element])
    case 'union':
      return any(def.options ?? [])
    case 'intersection':
      return any([def.left, def.right])
    case 'record':
      return any([def.keyType, def.valueType])
    case 'tuple':
      return any([...(def.items ?? []), def.rest])
    default:
      // default, prefault, catch, transform, pipe, readonly, lazy, and anything newer.
      return true
  }
}
