import { z } from 'zod'

export type JsonSchema = Record<string, unknown>

/** Where a component schema is referenced from anywhere in the document. */
export function componentRef(name: string): { $ref: string } {
  return { $ref: `#/components/schemas/${name}` }
}

/**
 * Adds a zod schema to the document's component schemas under `name` and returns a reference to it.
 *
 * What JSON Schema cannot say degrades instead of failing: a transform's result becomes `{}` (any value), and checks
 * written as code (refinements) are left out, so the server stays the judge of those and answers `invalid_input`.
 * `io` picks the side of transforms and defaults: what a client sends (`input`: a field with a default is optional),
 * or what the server answers (`output`).
 *
 * zod writes a recursive schema's references relative to its own root (`#` and `#/$defs/…`); embedded in an OpenAPI
 * document they would resolve against the document's root, so they are rewritten to point at component schemas.
 */
export function addComponent(components: Record<string, JsonSchema>, name: string, schema: z.ZodType, io: 'input' | 'output'): { $ref: string } {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema
  delete json.$schema
  const defs = (json.$defs ?? {}) as Record<string, JsonSchema>
  delete json.$defs
  const target = (ref: string): string => {
    if (ref === '#') return componentRef(name).$ref
    const def = /^#\/\$defs\/(.+)$/.exec(ref)
    return def ? componentRef(`${name}.${def[1]}`).$ref : ref
  }
  components[name] = rewriteRefs(json, target) as JsonSchema
  for (const [id, def] of Object.entries(defs)) components[`${name}.${id}`] = rewriteRefs(def, target) as JsonSchema
  return componentRef(name)
}

function rewriteRefs(value: unknown, target: (ref: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, target))
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) out[k] = k === '$ref' && typeof v === 'string' ? target(v) : rewriteRefs(v, target)
  return out
}
