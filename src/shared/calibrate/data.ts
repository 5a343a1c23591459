import type { FieldSpec } from '../instruments/types'
import { CRITERION_KINDS, type ReportInput, type ReportSourceInput } from '../report/input'
import { combineSources, comparableFields, resolveSource, valueKey, type ResolvedSource, type Value } from '../report/resolve'
import type { Split } from '../items/kinds'
import { ReportFrame } from '../report/frame'
import type { TargetSpec } from './types'

/** The sources of an audit input resolved to one value per unit, with the human majority built as the report does. */
export interface ResolvedInput {
  fields: FieldSpec[]
  sources: Map<string, ResolvedSource>
  /** Criteria in the report's order (reference labels, references, adjudicated, human majority). */
  criteria: ResolvedSource[]
  splitOf: Map<number, Split>
}

const CRITERION_ORDER = ['item_label', 'reference_import', 'adjudicated', 'human_majority']

/** The human majority's id and name, as every table names it. */
export const HUMAN_MAJORITY = { id: 'human-majority', name: 'Human majority' } as const

/** A source or criterion as messages name it: its name as forms and tables give it, with the id commands take. */
export function namedSource(input: Pick<ReportInput, 'sources'>, id: string): string {
  const name = id === HUMAN_MAJORITY.id ? HUMAN_MAJORITY.name : input.sources.find((s) => s.id === id)?.name
  return name && name !== id ? `${name} (${id})` : id
}

export function resolveInput(input: ReportInput): ResolvedInput {
  const fields = comparableFields(input.instrument.fields)
  const inScope = new Set(input.items.map((i) => i.id))
  const frame = input.frame ?? ReportFrame.of([])
  const resolved = input.sources.map((s) => resolveSource(s, fields, inScope, frame))
  const annotators = resolved.filter((s) => s.input.kind === 'annotator')
  if (annotators.length > 0) {
    const majority: ReportSourceInput = { ...HUMAN_MAJORITY, kind: 'human_majority', detail: {}, calls: [] }
    resolved.push(combineSources(annotators, fields, majority))
  }
  const criteria = resolved
    .filter((s) => CRITERION_KINDS.has(s.input.kind))
    .sort((a, b) => CRITERION_ORDER.indexOf(a.input.kind) - CRITERION_ORDER.indexOf(b.input.kind))
  return { fields, sources: new Map(resolved.map((s) => [s.id, s])), criteria, splitOf: new Map(input.items.map((i) => [i.id, i.split])) }
}

/** A source's numeric field per unit, trials and display orders averaged (booleans read as 0/1). */
export function numericScores(input: ReportInput, sourceId: string, field: string): Map<string, number> {
  const source = input.sources.find((s) => s.id === sourceId)
  if (!source) return new Map()
  const spec: FieldSpec = { name: field, label: field, level: 'interval' }
  const numeric: ReportSourceInput = {
    ...source,
    calls: source.calls.map((c) => ({
      ...c,
      observations: c.observations.map((o) => {
        const v = o.values[field]
        return { unit: o.unit, values: { [field]: typeof v === 'boolean' ? (v ? 1 : 0) : (v ?? null) } }
      })
    }))
  }
  const resolved = resolveSource(numeric, [spec], new Set(input.items.map((i) => i.id)))
  const out = new Map<string, number>()
  for (const [key, v] of resolved.values.get(field) ?? []) if (typeof v === 'number') out.set(key, v)
  return out
}

/** 1 / 0 when the target defines a binary event and the value decides it; null for a scale target. */
export function eventOf(target: TargetSpec, value: Value): 0 | 1 | null {
  const positive = target.positive
  if (positive === null) {
    if (typeof value === 'boolean') return value ? 1 : 0
    return null
  }
  if (typeof positive === 'object') return typeof value === 'number' && value >= positive.at_least ? 1 : 0
  return valueKey(value) === valueKey(positive) ? 1 : 0
}

/** Whether a target is a binary event (else a numeric scale). */
export function isEventTarget(target: TargetSpec, field: FieldSpec | undefined): boolean {
  if (target.positive !== null) return true
  return !!field?.categories?.every((c) => typeof c === 'boolean')
}

export interface ScoredUnit {
  key: string
  itemId: number
  split: Split
  score: number
  /** The criterion's value of the target field. */
  label: Value
}

/** Units where the source has a score and the criterion a label, with the item's split. */
export function scoredUnits(input: ReportInput, resolved: ResolvedInput, sourceId: string, scoreField: string, criterionId: string, targetField: string): ScoredUnit[] {
  const scores = numericScores(input, sourceId, scoreField)
  const labels = resolved.sources.get(criterionId)?.values.get(targetField) ?? new Map<string, Value>()
  const out: ScoredUnit[] = []
  for (const [key, score] of scores) {
    const label = labels.get(key)
    if (label === undefined) continue
    const itemId = Number(key.slice(0, key.indexOf('\u0000')))
    out.push({ key, itemId, split: resolved.splitOf.get(itemId) ?? 'none', score, label })
  }
  return out
}
