import { describe, expect, it } from 'vitest'
import { renderTemplate, templateRef, type Template } from '../../../src/shared/templates'
import { loadBuiltInTemplates } from './support/load-templates'
import { VERBATIM } from './support/seed-locations'
import { SEED_FILES } from './support/seeds'
import { computeSourceDigests, partKey, pinnedDigests, sha256, sourceText, sourcesPresent, withSourcesTitle } from './support/source-digests'

// Every template taken from a source must be that source's text: the file itself, and the rendered request once
// each placeholder's token in the source is replaced by the same value. The digest of each source passage is pinned
// in the repository (source-digests.json), so this holds on a clone without the source documents; where they are
// present, the text is compared character for character and the pinned digests are recomputed from them.

const set = loadBuiltInTemplates()
// Derived templates are checked against their derivation (derive-ideas.test.ts), not against a quoted passage.
const sourced = set.templates.filter((t) => t.entry.source.seed !== null && t.entry.derived === undefined)
const present = sourcesPresent()
const pinned = pinnedDigests()

/** The source's text of a part: read from the source when present, else the part itself once its digest matched. */
function expectedText(t: Template, ref: string, part: string): string | undefined {
  return present ? sourceText(ref, part) : pinned[partKey(ref, part)] === sha256(t.parts[part] ?? '') ? t.parts[part] : undefined
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

  it('pins the digest of every part of every sourced template, and names its seed file', () => {
    for (const t of sourced) {
      const ref = templateRef(t.entry)
      for (const part of Object.keys(t.parts)) {
        expect(pinned[partKey(ref, part)], `${ref} ${part}`).toMatch(/^[0-9a-f]{64}$/)
        const loc = VERBATIM[ref]?.[part]
        if (loc) expect(t.entry.source.seed, `${ref} names its seed`).toBe(SEED_FILES[loc.seed])
      }
    }
  })

  it.skipIf(!present)(withSourcesTitle('pins digests that are those of the source documents'), () => {
    expect(pinnedDigests()).toEqual(computeSourceDigests())
  })

  for (const t of sourced) {
    const ref = templateRef(t.entry)
    for (const [part, text] of Object.entries(t.parts)) {
      it(`${ref} ${part} has the pinned digest of its source passage`, () => {
        expect(sha256(text)).toBe(pinned[partKey(ref, part)])
      })
      it.skipIf(!present)(withSourcesTitle(`${ref} ${part} is the source text, character for character`), () => {
        expect(text).toBe(sourceText(ref, part))
      })
    }

    it(`${ref} renders as the source with its placeholders filled`, () => {
      const values = fixedValues(t)
      const rendered = renderTemplate(t, values)
      for (const part of Object.keys(t.parts)) {
        const source = expectedText(t, ref, part)
        expect(source, `${ref} ${part}: source text or pinned digest`).toBeTypeOf('string')
        const expected = substituteInSource(source ?? '', t, values)
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
