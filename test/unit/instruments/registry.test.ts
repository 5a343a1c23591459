import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  getInstrument,
  INSTRUMENT_IDS,
  INSTRUMENTS,
  type InstrumentId,
  type Widget
} from '../../../src/shared/instruments'
import { ITEM_KINDS } from '../../../src/shared/items/kinds'
import {
  fsOlympiad,
  fsResearch,
  HYPOTHESIS_IDS,
  hypothesisSetWithTask,
  idea,
  ideaPair,
  preprintPair,
  proposalPair,
  rediscoveryTask,
  referencePair,
  researchQuestion
} from './fixtures'
import { buildProbePair } from '../../../src/shared/probes/pair'
import { BUILTIN_PROBE_KINDS } from '../../../src/shared/probes/kinds'

const test_ = { intervention: 'i', measurement: 'm', controls: 'c', supports_if: 's', refutes_if: 'r' }

/** One acceptable canonical answer per instrument, with the item it answers. */
const probePair = buildProbePair({
  original: proposalPair as never,
  side: 'b',
  kind: BUILTIN_PROBE_KINDS[1]!,
  probeMarkdown: `${(proposalPair as { b: { markdown: string } }).b.markdown}\n\nThis first-ever, paradigm-shifting study.`,
  madeBy: { method: 'hand', author: 'curator' },
  seed: 's'
}).payload

const VALID: Record<InstrumentId, { payload: Record<string, unknown>; judgement: unknown }> = {
  'pairwise-preference': { payload: proposalPair, judgement: { verdict: 'a_better', analysis: '' } },
  'flaw-audit': {
    payload: proposalPair,
    judgement: { flaws: [{ side: 'b', type: 'infeasible', severity: 'major', evidence: 'attention entropy', note: '' }] }
  },
  'hypothesis-match': {
    payload: hypothesisSetWithTask,
    judgement: { scores: HYPOTHESIS_IDS.map((id) => ({ id, match: 1, compatible: true, plausibility: 3, reason: '' })) }
  },
  'leak-audit': { payload: rediscoveryTask, judgement: { leak: false, evidence: '' } },
  'cue-rating': {
    payload: researchQuestion,
    judgement: { score: 0, input_score: 1, alternative_score: 0, cue_excerpt: '', rationale: 'r', hidden: 'h' }
  },
  'forecast-detailed': {
    payload: hypothesisSetWithTask,
    judgement: {
      protocol: 'experimental-support-v1',
      forecasts: HYPOTHESIS_IDS.map((id) => ({
        id,
        p_experimental_support: 0.3,
        recommend_for_testing: true,
        support_from_background: [],
        assumptions: [],
        contradictions: [],
        reason: 'r',
        test: test_
      }))
    }
  },
  'forecast-short': {
    payload: hypothesisSetWithTask,
    judgement: { forecasts: HYPOTHESIS_IDS.map((id) => ({ id, confirmed: false })) }
  },
  'fs-research-grade': { payload: fsResearch, judgement: { points: [4, 3, 0], total: 7 } },
  'fs-olympiad-grade': { payload: fsOlympiad, judgement: { correct: true } },
  'idea-review': { payload: idea, judgement: { originality: 5, feasibility: 6, clarity: 7 } },
  'idea-similarity': { payload: ideaPair, judgement: { letter: 'D' } },
  'preprint-same-study': { payload: preprintPair, judgement: { same_study: true, confidence: 0.9, reason: 'r' } },
  'reference-comparison': {
    payload: referencePair,
    judgement: {
      same_core_finding: true,
      same_mechanism_or_target: false,
      same_direction_of_effect: true,
      b_adds_elements: false,
      b_omits_elements: false,
      differences: ''
    }
  },
  'probe-check': { payload: probePair, judgement: { flaw_present: true, only_change: true, severity: 'minor', note: '' } }
}

const manifestPath = fileURLToPath(new URL('../../../resources/templates/index.json', import.meta.url))
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { templates: Array<{ id: string; instrument: string }> }

const ctx = { seed: 'seed-1', viewer: 'alice', externalId: 'item-1' }

function keysOf(widgets: ReadonlyArray<Widget>): string[] {
  return widgets.flatMap((w) => {
    switch (w.kind) {
      case 'choice':
        return w.options.map((o) => o.key)
      case 'units':
      case 'list':
        return [] // nested widgets repeat per unit; their keys apply to the focused unit
      default:
        return []
    }
  })
}

describe('instrument registry', () => {
  it('holds every declared instrument under its own id, at its current version', () => {
    expect(Object.keys(INSTRUMENTS).sort()).toEqual([...INSTRUMENT_IDS].sort())
    for (const id of INSTRUMENT_IDS) {
      expect(getInstrument(id).id).toBe(id)
      expect(getInstrument(id).version).toBe(id === 'flaw-audit' ? 3 : id === 'cue-rating' ? 2 : 1)
      expect(Object.keys(ITEM_KINDS)).toContain(getInstrument(id).itemKind)
    }
    expect(() => getInstrument('no-such-instrument')).toThrow(/Unknown instrument/)
  })

  it('names only templates that exist, and every template of an instrument is named by it', () => {
    for (const id of INSTRUMENT_IDS) {
      const declared = [...getInstrument(id).templates].sort()
      const inManifest = manifest.templates.filter((t) => t.instrument === id).map((t) => t.id).sort()
      expect(declared, id).toEqual(inManifest)
    }
  })

  for (const id of INSTRUMENT_IDS) {
    describe(id, () => {
      const instrument = getInstrument(id)
      const { payload, judgement } = VALID[id]

      it('fixture item is a valid payload of its kind', () => {
        expect(ITEM_KINDS[instrument.itemKind].safeParse(payload).success).toBe(true)
      })

      it('parses a valid answer, which passes the item checks', () => {
        const parsed = instrument.judgement.parse(judgement)
        expect(instrument.check(parsed, payload as never)).toEqual([])
      })

      it('has a judgement schema that can be sent to a model as JSON Schema', () => {
        expect(() => z.toJSONSchema(instrument.judgement)).not.toThrow()
      })

      it('observes only declared fields, with values on their declared scales', () => {
        const parsed = instrument.judgement.parse(judgement)
        const observations = instrument.observe(parsed, payload as never)
        expect(observations.length).toBeGreaterThan(0)
        const fields = new Map(instrument.fields.map((f) => [f.name, f]))
        expect(fields.size).toBe(instrument.fields.length)
        for (const obs of observations) {
          expect(typeof obs.unit).toBe('string')
          for (const [name, value] of Object.entries(obs.values)) {
            const field = fields.get(name)
            expect(field, `${id}: ${name} is not declared`).toBeDefined()
            if (value !== null && field?.categories) expect(field.categories).toContain(value)
            if (value !== null && field?.level === 'probability') {
              expect(value as number).toBeGreaterThanOrEqual(0)
              expect(value as number).toBeLessThanOrEqual(1)
            }
          }
        }
        expect(new Set(observations.map((o) => o.unit)).size).toBe(observations.length)
      })

      it('round-trips the display mapping of its own view', () => {
        const { display } = instrument.blind(payload as never, ctx)
        const parsed = instrument.judgement.parse(judgement)
        expect(instrument.toCanonical(instrument.toDisplay(parsed, display), display)).toEqual(parsed)
      })

      it('declares a keyboard-first form: unique choice keys and an empty draft for its view', () => {
        const keys = keysOf(instrument.form.widgets)
        expect(new Set(keys).size).toBe(keys.length)
        const nested = instrument.form.widgets.flatMap((w) => (w.kind === 'units' || w.kind === 'list' ? w.widgets : []))
        for (const w of nested) {
          if (w.kind === 'choice') expect(new Set(w.options.map((o) => o.key)).size).toBe(w.options.length)
        }
        const { view } = instrument.blind(payload as never, ctx)
        expect(instrument.form.empty(view)).toBeTypeOf('object')
      })
    })
  }

  it('empty drafts of unit instruments list the units shown, by label', () => {
    const { view } = getInstrument('hypothesis-match').blind(hypothesisSetWithTask as never, ctx)
    const draft = getInstrument('hypothesis-match').form.empty(view) as { scores: Array<{ id: string }> }
    expect(draft.scores.map((s) => s.id)).toEqual(['P1', 'P2', 'P3', 'P4', 'P5'])
  })
})
