import { z } from 'zod'

// The generic import reads a team's own JSONL or CSV through a mapping from Assay's roles to the file's columns.
// Single texts become `idea` items (annotated with idea-review); pairs become `proposal-pair` items (pairwise
// preference, flaw audit), their origins kept in main like every pair's.

export const GENERIC_SHAPES = ['texts', 'pairs'] as const
export type GenericShape = (typeof GENERIC_SHAPES)[number]

/** Each shape's roles, the required ones first, with what each becomes. */
export const GENERIC_ROLES: Record<GenericShape, ReadonlyArray<{ role: string; required: boolean; to: string }>> = {
  texts: [
    { role: 'id', required: true, to: 'item id' },
    { role: 'text', required: true, to: 'the text (Markdown), shown to annotators' },
    { role: 'title', required: false, to: 'title, for lists (not shown to annotators)' },
    { role: 'origin', required: false, to: 'origin (who or what wrote it; hidden from annotators)' }
  ],
  pairs: [
    { role: 'id', required: true, to: 'pair id (hidden from annotators)' },
    { role: 'a_text', required: true, to: 'text A (Markdown), shown to annotators' },
    { role: 'b_text', required: true, to: 'text B (Markdown), shown to annotators' },
    { role: 'title', required: false, to: 'topic, shown above the pair' },
    { role: 'a_origin', required: false, to: 'origin of A: human or ai (hidden from annotators)' },
    { role: 'b_origin', required: false, to: 'origin of B: human or ai (hidden from annotators)' },
    { role: 'label', required: false, to: 'reference label, canonical (a_better…) or by origin (human_better…); hidden' }
  ]
}

export const GENERIC_ROLE_NAMES = ['id', 'text', 'title', 'origin', 'a_text', 'b_text', 'a_origin', 'b_origin', 'label'] as const
export type GenericRole = (typeof GENERIC_ROLE_NAMES)[number]

const column = z.string().trim().min(1).max(200)

/** Which column of the file holds each role; a column no role names is kept unchanged under the item's `$extra`. */
export const genericMappingSchema = z
  .object({
    as: z.enum(GENERIC_SHAPES),
    columns: z.partialRecord(z.enum(GENERIC_ROLE_NAMES), column)
  })
  .strict()
export type GenericMapping = z.infer<typeof genericMappingSchema>
