import { describe, expect, it } from 'vitest'
import {
  buildTemplateSet,
  deriveIdeaTemplates,
  DerivationError,
  getTemplate,
  IDEA_ANSWER_FORMAT,
  ideaWords,
  parseTemplateManifest,
  renderPart,
  renderRequest,
  type TemplateSet
} from '../../../src/shared/templates'
import { loadBuiltInTemplates, readTemplateFile } from './support/load-templates'

// The idea templates are derived from the quoted hypothesis templates by the source's rule. The derivation runs on
// the quoted templates only (derived entries removed from the manifest), and must give exactly the registered files
// and manifest entries; each stage is then checked against the rule itself.

const all = loadBuiltInTemplates()
const quotedOnly: TemplateSet = buildTemplateSet(
  parseTemplateManifest({ schemaVersion: 1, templates: all.manifest.templates.filter((t) => t.derived === undefined) }),
  readTemplateFile
)
const derived = deriveIdeaTemplates(quotedOnly)
const byId = new Map(derived.map((d) => [d.entry.id, d]))
const hypothesisTask = 'Research background:\n[BACKGROUND]\n\nResearch question:\n[RESEARCH QUESTION]'

describe('idea templates derived from the hypothesis templates', () => {
  it('are registered in the manifest exactly as derived, marked derived and not quoted, with files equal to the derivation', () => {
    const registered = all.manifest.templates.filter((t) => t.derived !== undefined)
    expect(registered.map((t) => t.id).sort()).toEqual(derived.map((d) => d.entry.id).sort())
    for (const d of derived) {
      expect(getTemplate(all, d.entry.id, 1).entry).toEqual(d.entry)
      expect(d.entry.derived?.from.length).toBeGreaterThan(0)
      for (const [part, path] of Object.entries(d.entry.files)) expect(readTemplateFile(path), `${d.entry.id} ${part}`).toBe(d.parts[part])
    }
  })

  it('applies the rule to every stage of both chains: ideas for hypotheses, nothing else changed', () => {
    for (const [from, to] of [
      ['chain-stages', 'idea-chain-stages'],
      ['omega-stages', 'idea-omega-stages']
    ] as const) {
      const source = getTemplate(quotedOnly, from, 1)
      const result = byId.get(to)!
      expect(Object.keys(result.parts)).toEqual(['stage-1', 'stage-2', 'stage-3', 'stage-4', 'stage-5'])
      for (const [part, text] of Object.entries(result.parts)) {
        const original = source.parts[part]!
        expect(text, `${to} ${part}`).not.toMatch(/hypothes/i)
        // Word for word the same once the hypothesis words are put back to one token on both sides.
        expect(text.replace(/\bideas?\b/gi, 'X')).toBe(original.replace(/\bhypothes(es|is)\b/gi, 'X'))
      }
    }
    expect(byId.get('idea-chain-stages')!.parts['stage-4']).toBe('STAGE 4 OF 5 — Using the work above, generate ideas that answer the task.')
    expect(byId.get('idea-omega-stages')!.parts['stage-3']).toContain('[LENS]')
  })

  it('returns ideas as {"ideas":[{"idea":"the idea"}],"notes":""} at stages 4 and 5 and in further requests', () => {
    expect(byId.get('idea-stage-format')!.parts.text).toBe('Return JSON {"ideas":[{"idea":"the idea"}],"notes":""}')
    expect(byId.get('idea-further')!.parts.user!.endsWith(`\n\n${IDEA_ANSWER_FORMAT}`)).toBe(true)
  })

  it('puts the keyword task in place of the background and question in every request, with the idea generator’s system line', () => {
    const ideaTask = readTemplateFile('idea-generation/v1.user.txt').split('\n\nPropose two ideas.')[0]!
    const ideaSystem = readTemplateFile('idea-generation/v1.system.txt')
    for (const id of ['idea-stage', 'idea-omega-stage-4', 'idea-omega-stage-4-granted', 'idea-further']) {
      const d = byId.get(id)!
      expect(d.parts.user!.startsWith(`${ideaTask}\n\n`), id).toBe(true)
      expect(d.parts.user).not.toContain(hypothesisTask)
      expect(d.parts.user).not.toMatch(/hypothes/i)
      expect(d.parts.system!.startsWith(ideaSystem), id).toBe(true)
      expect(d.entry.placeholders.map((p) => p.name)).toContain('keyword')
      expect(d.entry.placeholders.map((p) => p.name)).not.toContain('background')
    }
    // The Omega Point role directives follow the system line unchanged.
    for (const id of ['omega-stage-4', 'omega-stage-4-granted']) {
      const quoted = getTemplate(quotedOnly, id, 1).parts.system!
      const directive = quoted.slice(readTemplateFile('hypothesis-single/v1.system.txt').length)
      expect(byId.get(`idea-${id}`)!.parts.system).toBe(ideaSystem + directive)
    }
  })

  it('renders a stage request of the idea chain with only the keyword and the stage values', () => {
    const stage = getTemplate(all, 'idea-stage', 1)
    const text = renderPart(getTemplate(all, 'idea-chain-stages', 1), 'stage-5', {})
    const req = renderRequest(stage, { keyword: 'senolytics', previous_stages: '', stage_text: text, answer_format: IDEA_ANSWER_FORMAT })
    expect(req.system).toBe('You are a scientist who proposes research ideas.')
    expect(req.user).toContain('Your assigned keyword is: "senolytics".')
    expect(req.user.endsWith(`${text}\n\n${IDEA_ANSWER_FORMAT}`)).toBe(true)
  })

  it('replaces the words keeping their capitals, and refuses a source that lost its shape', () => {
    expect(ideaWords('HOW MANY HYPOTHESES; Hypotheses and a hypothesis, A hypothesis.')).toBe('HOW MANY IDEAS; Ideas and an idea, An idea.')
    const broken: TemplateSet = {
      manifest: quotedOnly.manifest,
      templates: quotedOnly.templates.map((t) => (t.entry.id === 'hypothesis-stage' ? { ...t, parts: { ...t.parts, user: `Preface\n${t.parts.user}` } } : t))
    }
    expect(() => deriveIdeaTemplates(broken)).toThrow(DerivationError)
  })
})
