import { describe, expect, it } from 'vitest'
import { renderTemplate, templateRef, type Template } from '../../../src/shared/templates'
import { loadBuiltInTemplates } from './support/load-templates'
import { VERBATIM, grantedOmegaStage4System } from './support/seed-locations'
import { SEED_FILES, locate, type SeedLocation } from './support/seeds'

// Every template taken from a source must be that source's text: the file itself, and the rendered request once
// each placeholder's token in the source is replaced by the same value.

const set = loadBuiltInTemplates()
const sourced = set.templates.filter((t) => t.entry.source.seed !== null)

/** Parts whose text the source states by a rule rather than verbatim. */
const DERIVED: Record<string, Record<string, () => string>> = {
  'omega-stage-4-granted@1': {
    system: grantedOmegaStage4System,
    user: () => locate(VERBATIM['hypothesis-stage@1']?.user as SeedLocation)
  }
}

function sourceText(ref: string, part: string): string | undefined {
  const derived = DERIVED[ref]?.[part]
  if (derived) return derived()
  const loc = VERBATIM[ref]?.[part]
  return loc ? locate(loc) : undefined
}

/** Distinct values that cannot be mistaken for template text. */
function fixedValues(t: Template): Record<string, string> {
  return Object.fromEntries(t.entry.placeholders.map((p, i) => [p.name, `<<value ${i} of ${p.name}>>`]))
}

/** Substitution done independently of the renderer: plain split/join on the source text. */
function substituteInSource(text: string, t: Template, values: Record<string, string>): string {
  let out = text
  for (const p of t.entry.placeholders) out = out.split(p.token).join(values[p.name] ?? '')
  return out
}

describe('built-in templates reproduce their sources', () => {
  it('covers every prompt the brief of the sources names', () => {
    const ids = new Set(set.templates.map((t) => t.entry.id))
    for (const id of [
      'preprint-check',
      'task-composition',
      'leak-audit',
      'reference-comparison',
      'hypothesis-single',
      'hypothesis-stage',
      'hypothesis-further',
      'hypothesis-selection',
      'omega-stage-4',
      'omega-stage-4-granted',
      'chain-stages',
      'omega-stages',
      'omega-lenses',
      'stage-format-text',
      'stage-format-4',
      'stage-format-5',
      'match-judge',
      'forecast-detailed',
      'forecast-short-set',
      'forecast-short-claim',
      'idea-generation',
      'idea-selection',
      'idea-review',
      'idea-similarity',
      'cue-rating',
      'fs-olympiad-grade',
      'fs-research-grade',
      'pairwise-ranker',
      'pairwise-ranker-lr'
    ]) {
      expect(ids, id).toContain(id)
    }
  })

  it('locates every part of every sourced template in its seed file', () => {
    for (const t of sourced) {
      const ref = templateRef(t.entry)
      for (const part of Object.keys(t.parts)) {
        expect(sourceText(ref, part), `${ref} ${part}`).toBeTypeOf('string')
        const loc = VERBATIM[ref]?.[part]
        if (loc) expect(t.entry.source.seed, `${ref} names its seed`).toBe(SEED_FILES[loc.seed])
      }
    }
  })

  for (const t of sourced) {
    const ref = templateRef(t.entry)
    for (const [part, text] of Object.entries(t.parts)) {
      it(`${ref} ${part} is the source text, character for character`, () => {
        expect(text).toBe(sourceText(ref, part))
      })
    }

    it(`${ref} renders as the source with its placeholders filled`, () => {
      const values = fixedValues(t)
      const rendered = renderTemplate(t, values)
      for (const part of Object.keys(t.parts)) {
        const expected = substituteInSource(sourceText(ref, part) ?? '', t, values)
        expect(rendered[part], part).toBe(expected)
        for (const p of t.entry.placeholders) {
          expect(rendered[part]?.includes(p.token), `${p.token} left in ${part}`).toBe(false)
        }
      }
    })

    it(`${ref} has no token-like text that is not a declared placeholder`, () => {
      for (const [part, text] of Object.entries(t.parts)) {
        let rest = text
        for (const p of t.entry.placeholders) rest = rest.split(p.token).join('')
        expect(rest.match(/\[[A-Z][A-Z0-9 ,.-]*\]/g), part).toBeNull()
        expect(rest.match(/\{[a-z][a-z ]*\}/g), part).toBeNull()
      }
    })
  }

  it('keeps every file free of a trailing newline and of carriage returns, as the sources are', () => {
    for (const t of set.templates) {
      for (const [part, text] of Object.entries(t.parts)) {
        expect(text.endsWith('\n'), `${templateRef(t.entry)} ${part}`).toBe(false)
        expect(text.includes('\r'), `${templateRef(t.entry)} ${part}`).toBe(false)
      }
    }
  })
})
