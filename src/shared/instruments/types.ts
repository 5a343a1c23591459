import type { z } from 'zod'
import type { ItemKind, ItemPayload } from '../items/kinds'
import type { Declaration } from './declared/declaration'

export const INSTRUMENT_IDS = [
  'pairwise-preference',
  'flaw-audit',
  'hypothesis-match',
  'leak-audit',
  'cue-rating',
  'forecast-detailed',
  'forecast-short',
  'fs-research-grade',
  'fs-olympiad-grade',
  'idea-review',
  'idea-similarity',
  'preprint-same-study',
  'reference-comparison',
  'probe-check'
] as const
/** A built-in instrument's id. */
export type BuiltInInstrumentId = (typeof INSTRUMENT_IDS)[number]
/** A built-in id, or the id of an instrument a project declared (never one of the built-in ids). */
export type InstrumentId = BuiltInInstrumentId | (string & {})

/** Decides which statistics the audit may compute for a field. */
export type MeasurementLevel = 'nominal' | 'ordinal' | 'interval' | 'ratio' | 'probability' | 'text'

export interface FieldSpec {
  name: string
  label: string
  level: MeasurementLevel
  /** The declared scale (ordinal/nominal): statistics weight over it even where data leave a category unused. */
  categories?: ReadonlyArray<string | number | boolean>
  /**
   * A yes/no field that is another field's number at or above a bound (passed: total ≥ 7). Where answers are combined
   * (trials, display orders, a majority of annotators) it is taken from the combined number, never voted on apart, so
   * a source's pass and its total never disagree.
   */
  derivedFrom?: { field: string; atLeast: number }
}

/** One observation per judged unit (a pair, a hypothesis of a set, a forecast): what the audit compares. */
export interface Observation {
  unit: string
  values: Record<string, string | number | boolean | null>
}

/** Where an answer is not acceptable for this item, with the field path it concerns. */
export interface JudgementIssue {
  path: string
  message: string
}

/** Context that decides an annotator's display order; recorded with the answer. */
export interface BlindingContext {
  /** Seed of the project or run. */
  seed: string
  /** Annotator id, or a run id for models: each gets an independent order. */
  viewer: string
  externalId: string
  /**
   * Left/right of a pair decided by the caller (main balances each annotator's pairs); absent, the IdeaEval hash
   * rule of seed and viewer decides, as for judges.
   */
  swapped?: boolean
}

/** What the viewer sees (only allowed fields) and how display positions map back to canonical ones. */
export interface BlindView {
  /** The item as shown, already stripped by the blinding policy and put in display order. */
  view: Record<string, unknown>
  /** Display mapping, stored with the answer (e.g. { swapped: true } or { order: ['C3','C1',...] }). */
  display: Record<string, unknown>
}

/**
 * A field required only when another answer of the same entry takes one of the listed values (`field` is relative
 * to the entry); `says` is the condition in words, shown beside the field ("required when you abstain").
 */
export interface RequiredWhen {
  field: string
  in: ReadonlyArray<string | number | boolean>
  says: string
}

/**
 * The human form, declared as data so one renderer serves every instrument and keyboard keys are uniform.
 * `field` is a dotted path into the judgement; `source` a dotted path into the blinded view.
 */
export type Widget =
  | {
      kind: 'choice'
      field: string
      label: string
      options: ReadonlyArray<{ value: string | boolean; label: string; key: string }>
      /** May stay unanswered; choosing the chosen option again clears it. */
      optional?: boolean
      /** When an optional choice is required after all, in words (the instrument's formRules enforce it). */
      says?: string
    }
  | { kind: 'scale'; field: string; label: string; min: number; max: number; anchors?: Record<number, string> }
  | { kind: 'boolean'; field: string; label: string; trueKey?: string; falseKey?: string }
  | { kind: 'number'; field: string; label: string; min?: number; max?: number; step?: number; nullable?: boolean; requiredWhen?: RequiredWhen }
  | { kind: 'text'; field: string; label: string; multiline?: boolean; optional?: boolean; requiredWhen?: RequiredWhen }
  | {
      kind: 'quote'
      field: string
      label: string
      source: ReadonlyArray<string>
      many?: boolean
      optional?: boolean
      requiredWhen?: RequiredWhen
      /** Sibling field that keeps where the quote sits in its source (`{ start, end }` offsets), where known. */
      spanField?: string
    }
  | { kind: 'units'; field: string; label: string; unitsFrom: string; unitIdField: string; widgets: ReadonlyArray<Widget> }
  | { kind: 'list'; field: string; label: string; itemLabel: string; widgets: ReadonlyArray<Widget> }
  | { kind: 'rubric'; field: string; label: string; source: string; maxTotal: number; passAt?: number }
  | { kind: 'code'; field: string; label: string; optional?: boolean }

export interface FormSpec {
  /** Markdown shown beside the form: the rubric of the source, verbatim where the source has one. */
  rubric?: string
  widgets: ReadonlyArray<Widget>
  /** An initial empty answer for a new draft. */
  empty(view: Record<string, unknown>): unknown
}

export interface Instrument<K extends ItemKind = ItemKind, J = unknown> {
  id: InstrumentId
  /** Raised whenever the schema, form or blinding changes; stored with every judgement. */
  version: number
  title: string
  description: string
  itemKind: K
  /**
   * Whether the instrument applies to this item, where the item kind alone does not decide (e.g. the track of an
   * fs-problem). Absent means every item of `itemKind`.
   */
  accepts?(payload: ItemPayload<K>): boolean
  /**
   * The payload field holding what the instrument grades (a candidate response), for grading instruments: they are
   * never assigned to an item without it, which would give people nothing to grade.
   */
  grades?: string
  /**
   * The judgement schema in canonical form: what a form produces and what a model answer is parsed into. Instruments
   * build their schemas on first use (`z.lazy`): every screen that loads the instruments uses one or two of them, and
   * building all of them took a good part of opening the annotation screen.
   */
  judgement: z.ZodType<J>
  fields: ReadonlyArray<FieldSpec>
  form: FormSpec
  /** Built-in prompt templates (ids in resources/templates/index.json) that ask models this instrument. */
  templates: ReadonlyArray<string>
  /** Blinding policy: computed in main; hidden fields never leave it. */
  blind(payload: ItemPayload<K>, ctx: BlindingContext): BlindView
  /**
   * Maps an answer given in display order (left/right, P1..P5 as shown) to canonical order, and back
   * (drafts and history are shown in the viewer's order). Identity where the display does not reorder.
   */
  toCanonical(judgement: J, display: Record<string, unknown>): J
  toDisplay(judgement: J, display: Record<string, unknown>): J
  /**
   * Checks of an answer as given (display order) against the view as shown, run by main before the answer is mapped
   * to canonical order, so messages name what the person saw ("the left proposal"), never the hidden order.
   */
  checkShown?(judgement: J, view: Record<string, unknown>): JudgementIssue[]
  /**
   * Rules a person's answer (display order) follows beyond its single fields, checked by the form and again by main
   * with the required fields (an empty flaw audit must say "no flaws found"). Model answers are held to the schema.
   */
  formRules?(answer: unknown): JudgementIssue[]
  /** Checks that need the item (exact quotes, rubric totals); main runs them on every submission. */
  check(judgement: J, payload: ItemPayload<K>): JudgementIssue[]
  /** Flattens an answer into per-unit observations for the audit; a unit is unique within its item. */
  observe(judgement: J, payload: ItemPayload<K>): Observation[]
  /**
   * Turns the value a template's answer parser returns (a VERDICT line's text, a single letter) into a judgement
   * candidate for `judgement`. Absent where the parsed answer is the judgement's JSON already.
   */
  fromModelAnswer?(parsed: unknown): unknown
  /**
   * For a model's answer (canonical order): sets aside, inside the judgement, the parts that fail the item's checks,
   * so they are recorded as unparseable one by one instead of being dropped or failing the whole answer. Returns the
   * judgement and the issues that remain.
   */
  setAsideModelIssues?(judgement: J, issues: JudgementIssue[]): { judgement: J; issues: JudgementIssue[] }
  /** An explicit abstention is recorded and reported but never counted as a choice. */
  isAbstention?(judgement: J): boolean
  /**
   * Present on an instrument a project declared: its declaration, the prompt judges are asked with (its values as
   * `{{name}}`) and the values of one request, from the blinded view.
   */
  declared?: {
    declaration: Declaration
    prompt: { system?: string; user: string }
    values(view: Record<string, unknown>): Record<string, string>
    /** The item checks run on the view alone (a packet, offline): quotes must be in what was shown. */
    checkView(judgement: unknown, view: Record<string, unknown>): JudgementIssue[]
  }
}

export type AnyInstrument = Instrument<ItemKind, any>
