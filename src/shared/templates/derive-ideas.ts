import { templateRef, type Placeholder, type TemplateEntry } from './manifest'
import type { Template } from './render'
import { getTemplate, type TemplateSet } from './set'

// The idea versions of the hypothesis generation requests, derived by the rule the longevity benchmark states (001,
// "Originality of ideas in the LiveIdeaBench adaptation"): the stages are those of the hypotheses, with "ideas" in
// place of "hypotheses" and the keyword task in place of the background and question; at stages 4 and 5 the answer
// is {"ideas":[{"idea":"the idea"}],"notes":""}. The source quotes none of these texts, so they are built here from
// the quoted ones and registered in the manifest as derived; a test checks the files against this function.

export const IDEA_DERIVATION_RULE = 'deriveIdeaTemplates (src/shared/templates/derive-ideas.ts)'

const SEED = '001_a9fefae456f2bd34.txt'
const SECTION = 'Originality of ideas in the LiveIdeaBench adaptation / Single request for two ideas'

/** The idea answer format at stages 4 and 5 (and, by the same rule, of the further request). */
export const IDEA_ANSWER_FORMAT = 'Return JSON {"ideas":[{"idea":"the idea"}],"notes":""}'

export interface DerivedTemplate {
  entry: TemplateEntry
  /** Part -> text. */
  parts: Record<string, string>
}

export class DerivationError extends Error {
  constructor(message: string) {
    super(`cannot derive the idea templates: ${message}`)
    this.name = 'DerivationError'
  }
}

function part(t: Template, name: string): string {
  const text = t.parts[name]
  if (text === undefined) throw new DerivationError(`${templateRef(t.entry)} has no part ${name}`)
  return text
}

/** The text before `marker` (which must occur once). */
function before(text: string, marker: string, where: string): string {
  const at = text.indexOf(marker)
  if (at < 0 || text.indexOf(marker, at + 1) >= 0) throw new DerivationError(`"${marker}" does not occur exactly once in ${where}`)
  return text.slice(0, at)
}

/**
 * "ideas" in place of "hypotheses", and by the same token "idea" in place of "hypothesis", keeping the capitals of
 * the word replaced ("HYPOTHESES" -> "IDEAS"); "a hypothesis" becomes "an idea".
 */
export function ideaWords(text: string): string {
  return text
    .replace(/\b([Aa]) (hypothesis)\b/g, (_m, a: string) => `${a}n idea`)
    .replace(/\b(hypothes)(es|is)\b/gi, (word: string, _stem: string, ending: string) => {
      const idea = ending.toLowerCase() === 'es' ? 'ideas' : 'idea'
      if (word === word.toUpperCase()) return idea.toUpperCase()
      if (word[0] === word[0]!.toUpperCase()) return idea[0]!.toUpperCase() + idea.slice(1)
      return idea
    })
}

/** Replaces the JSON answer line of a hypothesis request (`Return JSON {"hypotheses":...}`) by the idea format. */
function ideaAnswerLine(text: string, where: string): string {
  const lines = text.split('\n')
  const i = lines.findIndex((l) => l.startsWith('Return JSON {"hypotheses"'))
  if (i < 0) throw new DerivationError(`${where} has no hypothesis answer format`)
  lines[i] = IDEA_ANSWER_FORMAT
  return lines.join('\n')
}

interface TaskBlocks {
  hypothesis: string
  idea: string
}

/** The task blocks: "TASK / background / question / goal" of the hypothesis requests, "TASK / keyword / goal" of the idea request. */
function taskBlocks(set: TemplateSet): TaskBlocks {
  const single = getTemplate(set, 'hypothesis-single', 1)
  const idea = getTemplate(set, 'idea-generation', 1)
  return {
    hypothesis: before(part(single, 'user'), '\n\nPropose five hypotheses.', 'hypothesis-single@1 (user)'),
    idea: before(part(idea, 'user'), '\n\nPropose two ideas.', 'idea-generation@1 (user)')
  }
}

function withKeywordTask(text: string, blocks: TaskBlocks, where: string): string {
  if (!text.startsWith(blocks.hypothesis)) throw new DerivationError(`${where} does not start with the hypothesis task block`)
  return blocks.idea + text.slice(blocks.hypothesis.length)
}

/** The hypothesis generator's system line replaced by the idea generator's; the rest (Omega Point directives) kept. */
function withIdeaSystem(text: string, set: TemplateSet, where: string): string {
  const hypothesisSystem = part(getTemplate(set, 'hypothesis-single', 1), 'system')
  const ideaSystem = part(getTemplate(set, 'idea-generation', 1), 'system')
  if (!text.startsWith(hypothesisSystem)) throw new DerivationError(`${where} does not start with the generator's system instruction`)
  return ideaSystem + text.slice(hypothesisSystem.length)
}

function keywordPlaceholder(set: TemplateSet): Placeholder {
  const p = getTemplate(set, 'idea-generation', 1).entry.placeholders.find((x) => x.name === 'keyword')
  if (!p) throw new DerivationError('idea-generation@1 has no keyword placeholder')
  return p
}

/** Placeholders of a stage request: the keyword in place of background and question, the others kept. */
function stagePlaceholders(source: Template, set: TemplateSet, rename: Record<string, string> = {}): Placeholder[] {
  const out: Placeholder[] = []
  for (const p of source.entry.placeholders) {
    if (p.name === 'background') out.push(keywordPlaceholder(set))
    else if (p.name === 'question') continue
    else out.push({ ...p, description: rename[p.name] ?? ideaWords(p.description) })
  }
  return out
}

function entry(id: string, from: Template[], fields: Omit<TemplateEntry, 'id' | 'version' | 'instrument' | 'source' | 'derived'>): TemplateEntry {
  return {
    id,
    version: 1,
    instrument: 'generation',
    ...fields,
    source: { seed: SEED, section: SECTION },
    derived: { from: from.map((t) => templateRef(t.entry)), rule: IDEA_DERIVATION_RULE }
  } as TemplateEntry
}

/** Fragment parts, each under the rule, in new files `id/v1.<part>.txt`. */
function fragment(id: string, source: Template, transform: (text: string, where: string) => string, note: string): DerivedTemplate {
  const parts: Record<string, string> = {}
  const files: Record<string, string> = {}
  for (const name of Object.keys(source.entry.files)) {
    parts[name] = transform(part(source, name), `${templateRef(source.entry)} (${name})`)
    files[name] = `${id}/v1.${name}.txt`
  }
  return {
    entry: entry(id, [source], {
      kind: 'fragment',
      answerFormat: source.entry.answerFormat,
      grokSuffix: source.entry.grokSuffix,
      placeholders: source.entry.placeholders.map((p) => ({ ...p })),
      files,
      note
    }),
    parts
  }
}

/**
 * Every idea template derived from the quoted hypothesis templates of `set`: the stage request, the stage texts of
 * both chains, the answer formats of stages 4 and 5, Omega Point's stage-4 requests (plain and granted the fourth
 * role) and the further request. Pure; throws DerivationError when a quoted text no longer has the expected shape.
 */
export function deriveIdeaTemplates(set: TemplateSet): DerivedTemplate[] {
  const blocks = taskBlocks(set)
  const stage = getTemplate(set, 'hypothesis-stage', 1)
  const further = getTemplate(set, 'hypothesis-further', 1)
  const ideaGeneration = getTemplate(set, 'idea-generation', 1)
  const ideaSystemFile = ideaGeneration.entry.files.system
  if (!ideaSystemFile) throw new DerivationError('idea-generation@1 has no system file')
  const stageUser = ideaWords(withKeywordTask(part(stage, 'user'), blocks, 'hypothesis-stage@1 (user)'))
  const out: DerivedTemplate[] = []

  out.push({
    entry: entry('idea-stage', [stage, ideaGeneration], {
      kind: 'request',
      answerFormat: stage.entry.answerFormat,
      grokSuffix: stage.entry.grokSuffix,
      placeholders: stagePlaceholders(stage, set, { stage_text: 'One part of idea-chain-stages or idea-omega-stages.', answer_format: 'The text of stage-format-text (stages 1-3) or idea-stage-format (stages 4 and 5).' }),
      files: { system: ideaSystemFile, user: 'idea-stage/v1.user.txt' },
      note: 'One request per stage of the idea chains (multi-stage, and Omega Point except its stage 4): hypothesis-stage with the keyword task of idea-generation in place of the background and question, "ideas" in place of "hypotheses", and the idea generator\'s system instruction.'
    }),
    parts: { system: part(ideaGeneration, 'system'), user: stageUser }
  })

  out.push(fragment('idea-chain-stages', getTemplate(set, 'chain-stages', 1), ideaWords, 'Stage texts of the multi-stage chain with "ideas" in place of "hypotheses".'))
  out.push(fragment('idea-omega-stages', getTemplate(set, 'omega-stages', 1), ideaWords, 'Stage texts of the Omega Point scheme with "ideas" in place of "hypotheses".'))

  const format4 = getTemplate(set, 'stage-format-4', 1)
  const format5 = getTemplate(set, 'stage-format-5', 1)
  out.push({
    entry: entry('idea-stage-format', [format4, format5], {
      kind: 'fragment',
      answerFormat: 'json',
      grokSuffix: false,
      placeholders: [],
      files: { text: 'idea-stage-format/v1.text.txt' },
      note: 'The answer format of stages 4 and 5 of the idea chains, as the source gives it; one text for both stages.'
    }),
    parts: { text: ideaAnswerLine(part(format4, 'text'), 'stage-format-4@1') }
  })

  for (const id of ['omega-stage-4', 'omega-stage-4-granted'] as const) {
    const source = getTemplate(set, id, 1)
    out.push({
      entry: entry(`idea-${id}`, [source, stage, ideaGeneration], {
        kind: 'request',
        answerFormat: source.entry.answerFormat,
        grokSuffix: source.entry.grokSuffix,
        placeholders: stagePlaceholders(source, set, { stage_text: 'The stage-4 part of idea-omega-stages.', answer_format: 'The text of idea-stage-format.' }),
        files: { system: `idea-${id}/v1.system.txt`, user: 'idea-stage/v1.user.txt' },
        note: `${id} for ideas: the idea generator's system instruction in place of the hypothesis generator's, the role directive after it unchanged (it says itself that "a hypothesis is an idea you propose"); the user message of idea-stage.`
      }),
      parts: { system: withIdeaSystem(part(source, 'system'), set, `${id}@1 (system)`), user: stageUser }
    })
  }

  const furtherUser = ideaWords(ideaAnswerLine(withKeywordTask(part(further, 'user'), blocks, 'hypothesis-further@1 (user)'), 'hypothesis-further@1 (user)'))
  out.push({
    entry: entry('idea-further', [further, ideaGeneration], {
      kind: 'request',
      answerFormat: further.entry.answerFormat,
      grokSuffix: further.entry.grokSuffix,
      placeholders: further.entry.placeholders.flatMap((p): Placeholder[] =>
        p.name === 'background' ? [keywordPlaceholder(set)] : p.name === 'question' ? [] : p.name === 'proposed_hypotheses' ? [{ name: 'proposed_ideas', token: ideaWords(p.token), description: 'Ideas proposed so far as a numbered list (formatNumberedList of idea texts).' }] : [{ ...p }]
      ),
      files: { system: ideaSystemFile, user: 'idea-further/v1.user.txt' },
      note: 'The further request of the multi-stage chain for ideas, by the same rule: the keyword task, "ideas" in place of "hypotheses", the idea answer format.'
    }),
    parts: { system: part(ideaGeneration, 'system'), user: furtherUser }
  })
  return out
}
