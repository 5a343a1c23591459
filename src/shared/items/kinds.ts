import { z } from 'zod'
import { CANONICAL_PAIR_LABELS, ORIGIN_PAIR_LABELS, ORIGINS, SPLITS } from './labels'
import { parseCanChange } from './parse-changes'

export * from './labels'

// Item payloads keep fields they do not know (looseObject) so imports round-trip unchanged.

export const originSchema = z.enum(ORIGINS)

export const canonicalPairLabelSchema = z.enum(CANONICAL_PAIR_LABELS)
export const originPairLabelSchema = z.enum(ORIGIN_PAIR_LABELS)

export const proposalSchema = z.looseObject({
  markdown: z.string().min(1),
  title: z.string().optional(),
  origin: originSchema.nullish(),
  generator: z.string().nullish(),
  company: z.string().nullish(),
  citations: z.number().int().nonnegative().nullish()
})
export type Proposal = z.infer<typeof proposalSchema>

export const proposalPairSchema = z.looseObject({
  pair_id: z.string().min(1),
  topic: z.string().nullish(),
  cohort: z.string().nullish(),
  cutoff_date: z.string().nullish(),
  a: proposalSchema,
  b: proposalSchema,
  /** Reference label in canonical order, if any (expert label or citation order). */
  label: canonicalPairLabelSchema.nullish(),
  label_source: z.string().nullish(),
  probe: z.string().nullish()
})
export type ProposalPair = z.infer<typeof proposalPairSchema>

export const hypothesisSchema = z.looseObject({
  id: z.string().min(1),
  statement: z.string(),
  mechanism: z.string().default(''),
  prediction: z.string().default(''),
  domain_category: z.string().nullish()
})
export type Hypothesis = z.infer<typeof hypothesisSchema>

export const referenceSchema = z.looseObject({
  finding: z.string(),
  key_points: z.array(z.string()).default([])
})

export const rediscoveryTaskSchema = z.looseObject({
  task_id: z.string().min(1),
  background: z.string(),
  question: z.string(),
  subject: z.string().nullish(),
  finding: z.string(),
  key_points: z.array(z.string()).default([]),
  reference_b: referenceSchema.nullish()
})
export type RediscoveryTask = z.infer<typeof rediscoveryTaskSchema>

export const hypothesisSetSchema = z.looseObject({
  set_id: z.string().min(1),
  task_id: z.string().min(1),
  generator: z.string().nullish(),
  company: z.string().nullish(),
  scheme: z.enum(['single', 'multi-stage', 'omega-point']).nullish(),
  hypotheses: z.array(hypothesisSchema).min(1)
})
export type HypothesisSet = z.infer<typeof hypothesisSetSchema>

export const rubricItemSchema = z.object({ points: z.number().nonnegative(), item: z.string() })
export type RubricItem = z.infer<typeof rubricItemSchema>

export const fsProblemSchema = z.looseObject({
  track: z.enum(['olympiad', 'research']),
  problem: z.string(),
  /** Olympiad: the reference answer. Research: the rubric text. */
  answer: z.string(),
  rubric: z.array(rubricItemSchema).nullish(),
  subject: z.string().nullish(),
  task_group_id: z.string().nullish(),
  /** A candidate response to be graded. */
  response: z.string().nullish(),
  responder: z.string().nullish()
})
export type FsProblem = z.infer<typeof fsProblemSchema>

export const ideaSchema = z.looseObject({
  idea: z.string(),
  keywords: z.union([z.string(), z.array(z.string())]).nullish(),
  idea_model: z.string().nullish(),
  critic_model: z.string().nullish(),
  scores: z.record(z.string(), z.unknown()).nullish()
})

export const ideaPairSchema = z.looseObject({
  idea_a: z.string(),
  idea_b: z.string(),
  keywords: z.union([z.string(), z.array(z.string())]).nullish()
})

const authorsSchema = z.union([z.string(), z.array(z.string())]).nullish()
const paperSchema = z.looseObject({ title: z.string().default(''), authors: authorsSchema, abstract: z.string() })
/**
 * A published paper and one candidate preprint record. `same_study` is the reference answer (whether the preprint is
 * an earlier version of the paper), withheld like any label; the preprint check's probabilities are scored on it.
 */
export const preprintPairSchema = z.looseObject({
  paper: paperSchema,
  preprint: paperSchema,
  same_study: z.boolean().nullish(),
  label_source: z.string().nullish()
})

/** A published paper as PubMed lists it (title, journal, abstract): what a rediscovery task is composed from. */
export const paperItemSchema = z.looseObject({
  paper_id: z.string().min(1),
  title: z.string().min(1),
  journal: z.string().default(''),
  abstract: z.string().min(1),
  authors: authorsSchema,
  year: z.union([z.string(), z.number()]).nullish()
})

export const referencePairSchema = z.looseObject({
  task_id: z.string().nullish(),
  abstract: z.string().nullish(),
  reference_a: referenceSchema,
  reference_b: referenceSchema
})

export const researchQuestionSchema = z.looseObject({
  question_id: z.string().min(1),
  question: z.string(),
  background: z.string().nullish(),
  reference_answer: z.string().nullish()
})

export const ITEM_KINDS = {
  'proposal-pair': proposalPairSchema,
  'hypothesis-set': hypothesisSetSchema,
  'rediscovery-task': rediscoveryTaskSchema,
  'fs-problem': fsProblemSchema,
  idea: ideaSchema,
  'idea-pair': ideaPairSchema,
  'preprint-pair': preprintPairSchema,
  'reference-pair': referencePairSchema,
  'research-question': researchQuestionSchema,
  paper: paperItemSchema
} as const

export type ItemKind = keyof typeof ITEM_KINDS
export const itemKindSchema = z.enum(Object.keys(ITEM_KINDS) as [ItemKind, ...ItemKind[]])
export type ItemPayload<K extends ItemKind> = z.infer<(typeof ITEM_KINDS)[K]>

export const splitSchema = z.enum(SPLITS)

/** Validates a payload for its kind; returns zod issues with paths for error messages. */
export function parseItemPayload(kind: ItemKind, payload: unknown) {
  return ITEM_KINDS[kind].safeParse(payload)
}

/** Kinds whose parse can change a payload (defaults filled in), found on first use. */
let changedByParse: Map<ItemKind, boolean> | undefined

/**
 * A stored payload as instruments read it: with the kind's defaults applied where its schema has any (parsed), else
 * as stored, since it was validated on its way in and a parse would only copy it. A payload that no longer parses
 * is read as stored.
 */
export function payloadAsRead(kind: ItemKind, raw: Record<string, unknown>): Record<string, unknown> {
  changedByParse ??= new Map()
  let changes = changedByParse.get(kind)
  if (changes === undefined) changedByParse.set(kind, (changes = parseCanChange(ITEM_KINDS[kind])))
  if (!changes) return raw
  const parsed = parseItemPayload(kind, raw)
  return (parsed.success ? parsed.data : raw) as Record<string, unknown>
}

/** A short human title for lists; never includes hidden fields. */
export function itemTitle(kind: ItemKind, externalId: string, payload: Record<string, unknown>): string {
  const p = payload as Record<string, any>
  switch (kind) {
    case 'proposal-pair':
      return p.topic ? `${externalId} · ${p.topic}` : externalId
    case 'rediscovery-task':
    case 'research-question':
      return firstLine(String(p.question ?? externalId))
    case 'fs-problem':
      return `${p.track} · ${p.subject ?? ''} · ${firstLine(String(p.problem ?? ''))}`
    case 'hypothesis-set':
      return `${externalId} · task ${p.task_id}`
    case 'idea':
      return typeof p.title === 'string' && p.title ? p.title : firstLine(String(p.idea ?? externalId))
    case 'paper':
      return firstLine(String(p.title ?? externalId))
    default:
      return externalId
  }
}

/** Text indexed for search; the blinded fields are left out so search cannot reveal them. */
export function itemSearchText(kind: ItemKind, payload: Record<string, unknown>): string {
  const p = payload as Record<string, any>
  switch (kind) {
    case 'proposal-pair':
      return [p.pair_id, p.topic, p.a?.markdown, p.b?.markdown].filter(Boolean).join('\n')
    case 'hypothesis-set':
      return (p.hypotheses ?? []).map((h: Hypothesis) => `${h.statement} ${h.mechanism} ${h.prediction}`).join('\n')
    case 'rediscovery-task':
      return [p.background, p.question, p.subject].filter(Boolean).join('\n')
    case 'fs-problem':
      return [p.problem, p.subject].filter(Boolean).join('\n')
    case 'idea':
      return [p.idea, Array.isArray(p.keywords) ? p.keywords.join(' ') : p.keywords].filter(Boolean).join('\n')
    case 'idea-pair':
      return [p.idea_a, p.idea_b].filter(Boolean).join('\n')
    case 'research-question':
      return [p.question, p.background].filter(Boolean).join('\n')
    case 'preprint-pair':
      return [p.paper?.title, p.paper?.abstract, p.preprint?.title, p.preprint?.abstract].filter(Boolean).join('\n')
    case 'reference-pair':
      return [p.abstract, p.reference_a?.finding, p.reference_b?.finding].filter(Boolean).join('\n')
    case 'paper':
      return [p.title, p.journal, p.abstract].filter(Boolean).join('\n')
  }
}

function firstLine(s: string): string {
  const line = s.replace(/^#+\s*/, '').split('\n').find((l) => l.trim()) ?? ''
  return line.length > 140 ? `${line.slice(0, 137)}…` : line
}
