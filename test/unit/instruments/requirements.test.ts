import { describe, expect, it } from 'vitest'
import { INSTRUMENTS, getInstrument } from '../../../src/shared/instruments'
import { missingRequired, requirementOf } from '../../../src/shared/instruments/requirements'
import type { Widget } from '../../../src/shared/instruments/types'

// Every field of a form is required, optional, or required under a stated condition — and the rule the form shows
// is the rule that refuses an answer.

function leaves(widgets: ReadonlyArray<Widget>): Widget[] {
  return widgets.flatMap((w) => (w.kind === 'units' || w.kind === 'list' ? leaves(w.widgets) : [w]))
}

describe('form requirements', () => {
  it('refuses every required top-level text or quote field left empty, in every instrument', () => {
    for (const instrument of Object.values(INSTRUMENTS)) {
      const missing = new Set(missingRequired(instrument, {}).map((i) => i.path))
      for (const w of instrument.form.widgets) {
        if (w.kind !== 'text' && w.kind !== 'quote') continue
        expect(missing.has(w.field), `${instrument.id}.${w.field} is ${requirementOf(w).kind}`).toBe(requirementOf(w).kind === 'required')
      }
    }
  })

  it('states a condition for every conditionally required field, naming a field of the same form', () => {
    for (const instrument of Object.values(INSTRUMENTS)) {
      for (const w of leaves(instrument.form.widgets)) {
        if ((w.kind === 'text' || w.kind === 'quote' || w.kind === 'number') && w.requiredWhen) {
          expect(w.requiredWhen.says, `${instrument.id}.${w.field}`).toMatch(/^required when /)
          const optional = 'optional' in w ? w.optional : undefined
          expect(optional, `${instrument.id}.${w.field} cannot be optional and conditionally required`).toBeUndefined()
        }
      }
    }
  })

  it('requires "Why you abstain" exactly when Abstain is chosen', () => {
    const pairwise = getInstrument('pairwise-preference')
    expect(missingRequired(pairwise, { verdict: 'abstain' })).toEqual([{ path: 'abstain_reason', message: 'Required when you abstain.' }])
    expect(missingRequired(pairwise, { verdict: 'abstain', abstain_reason: '   ' })).toHaveLength(1)
    expect(missingRequired(pairwise, { verdict: 'abstain', abstain_reason: 'Outside my field.' })).toEqual([])
    expect(missingRequired(pairwise, { verdict: 'a_better' })).toEqual([])
    const widget = pairwise.form.widgets.find((w) => w.field === 'abstain_reason')!
    expect(requirementOf(widget)).toEqual({ kind: 'when', says: 'required when you abstain' })
  })

  it('holds cue ratings to the seed protocol: rationale and what remains hidden always, the excerpt when a cue is present', () => {
    const cue = getInstrument('cue-rating')
    const base = { score: 0, input_score: 1, alternative_score: 1, cue_excerpt: '', rationale: 'No cue.', hidden: 'The factor.' }
    expect(missingRequired(cue, base)).toEqual([])
    expect(missingRequired(cue, { ...base, rationale: '', hidden: ' ' }).map((i) => i.path)).toEqual(['rationale', 'hidden'])
    for (const score of [1, 2]) {
      expect(missingRequired(cue, { ...base, score })).toEqual([{ path: 'cue_excerpt', message: 'Required when a cue is present (score 1 or 2).' }])
    }
    expect(missingRequired(cue, { ...base, score: 2, cue_excerpt: 'circulating factor' })).toEqual([])
  })

  it('asks the leak audit for its leaking words exactly when it says there is a leak, as its check does', () => {
    const leak = getInstrument('leak-audit')
    expect(missingRequired(leak, { leak: false, evidence: '' })).toEqual([])
    expect(missingRequired(leak, { leak: true, evidence: ' ' })).toEqual([{ path: 'evidence', message: 'Required when there is a leak.' }])
    expect(missingRequired(leak, { leak: true, evidence: 'the words' })).toEqual([])
  })

  it('labels an estimate optional unless testing is recommended, and then requires it', () => {
    const forecast = getInstrument('forecast-detailed')
    const units = forecast.form.widgets.find((w) => w.kind === 'units')
    const estimate = units?.kind === 'units' ? units.widgets.find((w) => w.field === 'p_experimental_support') : undefined
    expect(requirementOf(estimate!)).toEqual({ kind: 'when', says: 'required when you recommend testing' })
    const entry = { id: 'H1', p_experimental_support: null, recommend_for_testing: true, reason: 'r', test: { intervention: 'i', measurement: 'm', controls: 'c', supports_if: 's', refutes_if: 'f' } }
    expect(missingRequired(forecast, { forecasts: [entry] })).toEqual([{ path: 'forecasts.0.p_experimental_support', message: 'Required when you recommend testing.' }])
    expect(missingRequired(forecast, { forecasts: [{ ...entry, recommend_for_testing: false }] })).toEqual([])
    expect(missingRequired(forecast, { forecasts: [{ ...entry, p_experimental_support: 0.4 }] })).toEqual([])
  })

  it('walks list entries and units: an added entry with empty text is refused, optional notes are not', () => {
    const flaws = getInstrument('flaw-audit')
    const entry = { side: 'a', type: 'other', severity: 'minor', evidence: '', note: '' }
    expect(missingRequired(flaws, { flaws: [entry] })).toEqual([{ path: 'flaws.0.evidence', message: 'Required.' }])
    expect(missingRequired(flaws, { flaws: [{ ...entry, evidence: 'x' }] })).toEqual([])
  })
})
