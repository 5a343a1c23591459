import type { FieldRule, DisagreementRuleView } from '../../shared/contract/packet-operations'
import { AssayError } from '../../shared/errors'
import type { AnyInstrument, FieldSpec, InstrumentId, MeasurementLevel } from '../../shared/instruments'
import type { Db, WritableDB } from '../store/database'
import { deleteMeta, getMeta, setMeta } from '../store/meta'

/**
 * Default disagreement rules, by measurement level. One step on a scale is ordinary rater noise; a crossing of a
 * decision threshold shows in the nominal field derived from the scale (winner, matched, passed), which counts any
 * difference. Free text is never compared.
 */
export const DEFAULT_THRESHOLDS: Record<Exclude<MeasurementLevel, 'nominal' | 'text'>, number> = {
  ordinal: 2,
  interval: 1,
  ratio: 1,
  probability: 0.2
}

/**
 * Fields computed from what annotators must not see (the pair's origins): comparing them says nothing the verdict
 * does not, and listing them would show origins on the adjudication screen.
 */
const HIDDEN_DERIVED: Partial<Record<InstrumentId, ReadonlyArray<string>>> = {
  'pairwise-preference': ['origin_verdict']
}

export function defaultFieldRule(instrument: AnyInstrument, field: FieldSpec): FieldRule {
  if (HIDDEN_DERIVED[instrument.id]?.includes(field.name)) return { kind: 'ignore' }
  if (field.level === 'text') return { kind: 'ignore' }
  if (field.level === 'nominal') return { kind: 'any' }
  return { kind: 'difference', threshold: DEFAULT_THRESHOLDS[field.level] }
}

function ruleKey(instrumentId: string): string {
  return `adjudication_rule:${instrumentId}`
}

function storedOverrides(db: Db, instrumentId: string): Record<string, FieldRule> {
  const raw = getMeta(db, ruleKey(instrumentId))
  if (!raw) return {}
  try {
    return JSON.parse(raw) as Record<string, FieldRule>
  } catch {
    return {}
  }
}

/** The rule in force for an instrument: the project's own per-field rules over the defaults. */
export function effectiveRule(db: Db, instrument: AnyInstrument): DisagreementRuleView {
  const overrides = storedOverrides(db, instrument.id)
  return {
    instrument: instrument.id,
    fields: instrument.fields.map((f) => {
      const own = overrides[f.name]
      return { name: f.name, label: f.label, level: f.level, rule: own ?? defaultFieldRule(instrument, f), isDefault: own === undefined }
    })
  }
}

/** Stores per-field rules (null: back to the defaults). A `difference` needs a field with magnitudes. */
export function setRule(db: WritableDB, instrument: AnyInstrument, fields: Record<string, FieldRule> | null): void {
  if (fields === null) {
    deleteMeta(db, ruleKey(instrument.id))
    return
  }
  const problems: Array<{ field: string; message: string }> = []
  for (const [name, rule] of Object.entries(fields)) {
    const spec = instrument.fields.find((f) => f.name === name)
    if (!spec) problems.push({ field: name, message: `${instrument.id} has no field "${name}"` })
    else if (rule.kind === 'difference' && (spec.level === 'nominal' || spec.level === 'text')) {
      problems.push({ field: name, message: `a ${spec.level} field has no size of difference; use "any" or "ignore"` })
    }
  }
  if (problems.length) throw new AssayError('invalid_input', 'The rule names fields it cannot apply to', problems)
  setMeta(db, ruleKey(instrument.id), JSON.stringify(fields))
}
