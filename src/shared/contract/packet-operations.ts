import { z } from 'zod'
import { op } from './define'
import { instrumentIdSchema, nameSchema } from './annotation-schemas'
import { splitSchema } from '../items/kinds'

// Annotator packets (export for offline work, merge back) and adjudication of disagreements between annotators.

const pathSchema = z.string().trim().min(1).max(4096)

export const packetExportInputSchema = z
  .object({
    annotator: nameSchema,
    /** Where main writes the packet file. */
    out: pathSchema,
    instrument: instrumentIdSchema.optional(),
    set: z.string().min(1).max(200).optional(),
    split: splitSchema.optional(),
    overwrite: z.boolean().optional()
  })
  .strict()

export const packetExportResultSchema = z.object({
  packetId: z.string(),
  path: z.string(),
  annotator: z.string(),
  assignments: z.number().int(),
  answers: z.number().int(),
  instruments: z.record(z.string(), z.number().int()),
  digest: z.string()
})

export const packetMergeReportSchema = z.object({
  path: z.string(),
  packetId: z.string(),
  annotator: z.string(),
  assignments: z.number().int(),
  added: z.number().int(),
  alreadyPresent: z.number().int(),
  rebased: z.number().int(),
  statusesChanged: z.number().int()
})
export type PacketMergeSummary = z.infer<typeof packetMergeReportSchema>

export const packetSummarySchema = z.object({
  id: z.string(),
  annotator: z.string(),
  assignments: z.number().int(),
  mergedAnswers: z.number().int(),
  createdAt: z.string(),
  mergedAt: z.string().nullable()
})
export type PacketSummary = z.infer<typeof packetSummarySchema>

/**
 * When two answers to the same unit disagree, per field: `any` difference (nominal fields), a `difference` of at
 * least `threshold` (scale steps for ordinal fields, units of the value for numbers), or `ignore`.
 */
export const fieldRuleSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('any') }).strict(),
  z.object({ kind: z.literal('difference'), threshold: z.number().positive().max(1e9) }).strict(),
  z.object({ kind: z.literal('ignore') }).strict()
])
export type FieldRule = z.infer<typeof fieldRuleSchema>

export const ruleFieldSchema = z.object({
  name: z.string(),
  label: z.string(),
  level: z.string(),
  rule: fieldRuleSchema,
  /** False where the project set its own rule for this field. */
  isDefault: z.boolean()
})

export const disagreementRuleSchema = z.object({ instrument: instrumentIdSchema, fields: z.array(ruleFieldSchema) })
export type DisagreementRuleView = z.infer<typeof disagreementRuleSchema>

/** Which fields disagree on an item, and on how many of its units (hypotheses, sides); no unit names. */
export const fieldDisagreementSchema = z.object({ field: z.string(), label: z.string(), units: z.number().int() })

export const adjudicationRefSchema = z.object({ id: z.string(), curator: z.string(), createdAt: z.string() })

export const disagreementRowSchema = z.object({
  itemId: z.number().int(),
  /** How people name the item: its id in the imported file and its title (never the database id). */
  externalId: z.string(),
  title: z.string(),
  kind: z.string(),
  answers: z.number().int(),
  annotators: z.array(z.string()),
  disagree: z.boolean(),
  fields: z.array(fieldDisagreementSchema),
  adjudication: adjudicationRefSchema.nullable(),
  /** An answer arrived (or changed) after the current adjudication was recorded. */
  stale: z.boolean()
})
export type DisagreementRow = z.infer<typeof disagreementRowSchema>

export const disagreementListSchema = z.object({
  instrument: instrumentIdSchema,
  rule: disagreementRuleSchema,
  counts: z.object({
    /** Items with current answers from at least two annotators: where agreement is defined. */
    compared: z.number().int(),
    disagreements: z.number().int(),
    adjudicated: z.number().int(),
    open: z.number().int()
  }),
  rows: z.array(disagreementRowSchema)
})

export const revisionRefSchema = z.object({ id: z.string(), createdAt: z.string(), retracted: z.boolean() })

export const sideBySideAnswerSchema = z.object({
  annotationId: z.string(),
  annotator: z.string(),
  pseudonym: z.string().nullable(),
  origin: z.string(),
  createdAt: z.string(),
  /** In the display order of the adjudication view. */
  judgement: z.unknown(),
  revisions: z.array(revisionRefSchema),
  /** For pairs: whether this annotator saw canonical B on the left (null where the item has no sides). */
  sawSwapped: z.boolean().nullable()
})

export const adjudicationRecordSchema = z.object({
  id: z.string(),
  /** In the display order of the adjudication view. */
  judgement: z.unknown(),
  reason: z.string(),
  curator: z.string(),
  basedOn: z.array(z.string()),
  supersedes: z.string().nullable(),
  createdAt: z.string()
})

export const adjudicationItemSchema = z.object({
  itemId: z.number().int(),
  externalId: z.string(),
  title: z.string(),
  instrument: instrumentIdSchema,
  kind: z.string(),
  /**
   * The item blinded as for any annotator: origins and labels stay hidden here too. Pairs are shown in canonical
   * order (`a` is canonical A), the one frame of items, adjudication and the report; other reorderings (hypothesis
   * labels) follow a fixed adjudication viewer.
   */
  view: z.record(z.string(), z.unknown()),
  /** 'canonical' where the item has two sides shown as canonical A and B; 'none' otherwise. */
  sides: z.enum(['canonical', 'none']),
  answers: z.array(sideBySideAnswerSchema),
  fields: z.array(fieldDisagreementSchema),
  current: adjudicationRecordSchema.nullable(),
  history: z.array(adjudicationRecordSchema)
})
export type AdjudicationItem = z.infer<typeof adjudicationItemSchema>

const instrumentInput = z.object({ instrument: instrumentIdSchema }).strict()

/** Operations of packets and adjudication (merged into the one contract in operations.ts). */
export const packetOperations = {
  'packets.export': op({
    input: packetExportInputSchema,
    output: packetExportResultSchema,
    access: 'curator',
    summary: "Write an annotator's packet: their assignments only, blinded, hidden fields absent from the file"
  }),
  'packets.merge': op({
    input: z.object({ paths: z.array(pathSchema).min(1).max(200) }).strict(),
    output: z.object({ packets: z.array(packetMergeReportSchema) }),
    access: 'curator',
    summary: 'Bring packets back (all or nothing; merging again changes nothing)'
  }),
  'packets.list': op({ input: z.object({}).strict(), output: z.object({ packets: z.array(packetSummarySchema) }), access: 'curator', summary: 'Packets made from this project' }),
  'adjudication.rule': op({ input: instrumentInput, output: disagreementRuleSchema, access: 'curator', summary: 'When answers count as disagreeing, per field' }),
  'adjudication.setRule': op({
    input: z.object({ instrument: instrumentIdSchema, fields: z.record(z.string(), fieldRuleSchema).nullable() }).strict(),
    output: disagreementRuleSchema,
    access: 'curator',
    summary: 'Set the disagreement rule of an instrument (null: back to the defaults)'
  }),
  'adjudication.list': op({
    input: z.object({ instrument: instrumentIdSchema, includeAgreeing: z.boolean().optional() }).strict(),
    output: disagreementListSchema,
    access: 'curator',
    summary: 'Items where annotators disagree by the rule, with their adjudication state'
  }),
  'adjudication.item': op({
    input: z.object({ instrument: instrumentIdSchema, itemId: z.number().int().positive() }).strict(),
    output: adjudicationItemSchema,
    access: 'curator',
    summary: "One item's answers side by side, with its adjudications"
  }),
  'adjudication.record': op({
    input: z
      .object({
        instrument: instrumentIdSchema,
        itemId: z.number().int().positive(),
        /** In the display order of the adjudication view. */
        judgement: z.unknown(),
        reason: z.string().trim().min(1).max(10_000),
        curator: z.string().trim().min(1).max(200),
        /**
         * The answers the judgement was made on (those shown side by side); default: every current answer of the item.
         * A current answer outside this list later marks the adjudication stale.
         */
        basedOn: z.array(z.string().min(1).max(100)).max(1000).optional(),
        /** The adjudication this one replaces, as the client last saw it; refused if another was recorded since. */
        expectedCurrent: z.string().nullable().optional()
      })
      .strict(),
    output: z.object({ id: z.string(), supersedes: z.string().nullable() }),
    access: 'curator',
    summary: 'Record the final label of an item with a reason (a new record supersedes the previous one)'
  })
} as const
