import type { DisagreementRuleView } from '../../shared/contract/packet-operations'
import type { AnyInstrument, Observation } from '../../shared/instruments'

type Value = string | number | boolean

export interface FieldDisagreement {
  field: string
  label: string
  /** Units (a pair, a hypothesis, a side) on which the answers disagree on this field. */
  units: number
}

/** Where a value sits on the field's scale: its category index when declared, the number itself otherwise. */
function magnitude(instrument: AnyInstrument, field: string, value: Value): number | null {
  const categories = instrument.fields.find((f) => f.name === field)?.categories
  if (categories) {
    const i = categories.indexOf(value)
    if (i >= 0) return i
  }
  return typeof value === 'number' ? value : null
}

/**
 * Compares the answers of several annotators to one item, unit by unit and field by field, under a rule. Units or
 * values only one annotator gave (a null is no value: an abstention shows in its own field) are not compared.
 */
export function disagreementsOf(
  instrument: AnyInstrument,
  rule: DisagreementRuleView,
  answers: ReadonlyArray<ReadonlyArray<Observation>>
): FieldDisagreement[] {
  const values = new Map<string, Map<string, Value[]>>()
  for (const observations of answers) {
    for (const o of observations) {
      for (const [field, v] of Object.entries(o.values)) {
        if (v === null || v === undefined) continue
        let byUnit = values.get(field)
        if (!byUnit) values.set(field, (byUnit = new Map()))
        const list = byUnit.get(o.unit)
        if (list) list.push(v)
        else byUnit.set(o.unit, [v])
      }
    }
  }
  const out: FieldDisagreement[] = []
  for (const f of rule.fields) {
    if (f.rule.kind === 'ignore') continue
    let units = 0
    for (const list of values.get(f.name)?.values() ?? []) {
      if (list.length < 2) continue
      if (unitDisagrees(instrument, f.name, f.rule, list)) units++
    }
    if (units > 0) out.push({ field: f.name, label: f.label, units })
  }
  return out
}

function unitDisagrees(instrument: AnyInstrument, field: string, rule: DisagreementRuleView['fields'][number]['rule'], list: ReadonlyArray<Value>): boolean {
  if (rule.kind === 'any') return new Set(list.map((v) => JSON.stringify(v))).size > 1
  if (rule.kind !== 'difference') return false
  const sizes = list.map((v) => magnitude(instrument, field, v))
  // Values without a magnitude cannot be measured apart; then any difference counts.
  if (sizes.some((s) => s === null)) return new Set(list.map((v) => JSON.stringify(v))).size > 1
  const numbers = sizes as number[]
  // A small tolerance keeps 0.3 − 0.1 from missing a threshold of 0.2 by rounding.
  return Math.max(...numbers) - Math.min(...numbers) >= rule.threshold - 1e-9
}
