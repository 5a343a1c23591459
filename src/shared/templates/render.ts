import { templateRef, type Placeholder, type TemplateEntry } from './manifest'
import { BadDataError } from '../errors'

// Rendering replaces each declared token with its value in one pass over the template text, so a value that happens
// to contain a token (a hypothesis quoting "[BACKGROUND]") is never expanded again, and "$&" in a value stays literal.

/** A template as loaded: its manifest entry and the text of each part. */
export interface Template {
  readonly entry: TemplateEntry
  readonly parts: Readonly<Record<string, string>>
}

export type TemplateValues = Readonly<Record<string, string>>

/** The messages of one request. */
export interface RenderedRequest {
  system?: string
  user: string
}

export class TemplateRenderError extends BadDataError {
  readonly template: string
  readonly problems: readonly string[]
  constructor(template: string, problems: readonly string[]) {
    super(`cannot render ${template}: ${problems.join('; ')}`)
    this.name = 'TemplateRenderError'
    this.template = template
    this.problems = problems
  }
}

/** The declared placeholders whose token occurs in `text`, in manifest order. */
export function placeholdersIn(text: string, placeholders: readonly Placeholder[]): Placeholder[] {
  return placeholders.filter((p) => text.includes(p.token))
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function substitute(text: string, present: readonly Placeholder[], values: TemplateValues): string {
  if (present.length === 0) return text
  const byToken = new Map(present.map((p) => [p.token, p.name]))
  // Longest first, so that of two tokens starting at the same place the whole one wins.
  const alternatives = [...byToken.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp)
  return text.replace(new RegExp(alternatives.join('|'), 'g'), (token) => values[byToken.get(token) ?? ''] ?? token)
}

function shortToken(token: string): string {
  const oneLine = token.replace(/\n/g, '\\n')
  return oneLine.length > 40 ? `${oneLine.slice(0, 37)}...` : oneLine
}

/** Problems with `values` for a text that uses `present` out of the `declared` placeholders. */
function valueProblems(
  declared: readonly Placeholder[],
  present: readonly Placeholder[],
  values: TemplateValues,
  where: string
): string[] {
  const problems: string[] = []
  for (const p of present) {
    if (!Object.hasOwn(values, p.name)) problems.push(`missing value for placeholder "${p.name}" (${shortToken(p.token)})`)
    else if (typeof values[p.name] !== 'string') problems.push(`value of placeholder "${p.name}" is not a string`)
  }
  const declaredNames = new Set(declared.map((p) => p.name))
  const presentNames = new Set(present.map((p) => p.name))
  for (const key of Object.keys(values)) {
    if (!declaredNames.has(key)) {
      const known = declared.map((p) => p.name).join(', ') || 'none'
      problems.push(`unknown placeholder "${key}" (declared: ${known})`)
    } else if (!presentNames.has(key)) {
      problems.push(`placeholder "${key}" does not occur in ${where}`)
    }
  }
  return problems
}

function partText(template: Template, part: string): string {
  const text = template.parts[part]
  if (text === undefined) {
    throw new TemplateRenderError(templateRef(template.entry), [`no part "${part}" (has: ${Object.keys(template.parts).join(', ')})`])
  }
  return text
}

/**
 * Renders one part of a template. Every placeholder occurring in that part needs a value; a value for a name that
 * is not declared, or that does not occur in this part, is refused.
 */
export function renderPart(template: Template, part: string, values: TemplateValues): string {
  const text = partText(template, part)
  const present = placeholdersIn(text, template.entry.placeholders)
  const problems = valueProblems(template.entry.placeholders, present, values, `part "${part}"`)
  if (problems.length > 0) throw new TemplateRenderError(`${templateRef(template.entry)} (${part})`, problems)
  return substitute(text, present, values)
}

/**
 * Renders every part of a template with one set of values: each placeholder occurring in any part needs a value,
 * and each value must be used by some part.
 */
export function renderTemplate(template: Template, values: TemplateValues): Record<string, string> {
  const texts = Object.entries(template.parts)
  const present = placeholdersIn(texts.map(([, t]) => t).join('\u0000'), template.entry.placeholders)
  const problems = valueProblems(template.entry.placeholders, present, values, 'any part')
  if (problems.length > 0) throw new TemplateRenderError(templateRef(template.entry), problems)
  const rendered: Record<string, string> = {}
  for (const [part, text] of texts) rendered[part] = substitute(text, placeholdersIn(text, present), values)
  return rendered
}

/** Renders a request template into its messages. */
export function renderRequest(template: Template, values: TemplateValues): RenderedRequest {
  if (template.entry.kind !== 'request') {
    throw new TemplateRenderError(templateRef(template.entry), ['a fragment is not a request; render its parts'])
  }
  const parts = renderTemplate(template, values)
  const user = parts.user
  if (user === undefined) throw new TemplateRenderError(templateRef(template.entry), ['no user part'])
  return parts.system === undefined ? { user } : { system: parts.system, user }
}
