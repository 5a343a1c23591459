import { TemplateManifestError, templateRef, type TemplateManifest } from './manifest'
import type { Template } from './render'

// Joins the manifest with the texts of its files. Reading is the caller's (main reads with fs, tests too): this
// module gets the text of a file by its path relative to the templates folder.

export interface TemplateSet {
  readonly manifest: TemplateManifest
  readonly templates: readonly Template[]
}

const ASSAY_TOKEN = /\{\{([a-z][a-z0-9_]*)\}\}/g

/** Defects of one loaded template: texts that cannot be sent as they are, tokens without a declaration or a use. */
export function templateProblems(template: Template): string[] {
  const { entry, parts } = template
  const ref = templateRef(entry)
  const problems: string[] = []
  for (const [part, text] of Object.entries(parts)) {
    if (text.length === 0) problems.push(`${ref} (${part}): empty text`)
    if (text.includes('\r')) problems.push(`${ref} (${part}): carriage return in text (the file must keep LF line ends)`)
    for (const match of text.matchAll(ASSAY_TOKEN)) {
      if (!entry.placeholders.some((p) => p.token === match[0])) {
        problems.push(`${ref} (${part}): ${match[0]} is not a declared placeholder`)
      }
    }
  }
  const all = Object.values(parts).join('\u0000')
  for (const p of entry.placeholders) {
    if (!all.includes(p.token)) problems.push(`${ref}: placeholder "${p.name}" does not occur in any part`)
  }
  return problems
}

/**
 * Loads every file of the manifest through `readFile` (a path relative to the templates folder -> its text) and
 * checks the result. Throws TemplateManifestError listing every problem.
 */
export function buildTemplateSet(manifest: TemplateManifest, readFile: (path: string) => string): TemplateSet {
  const cache = new Map<string, string>()
  const problems: string[] = []
  const read = (path: string): string | undefined => {
    if (!cache.has(path)) {
      try {
        cache.set(path, readFile(path))
      } catch (err) {
        problems.push(`${path}: ${(err as Error).message}`)
        return undefined
      }
    }
    return cache.get(path)
  }
  const templates: Template[] = []
  for (const entry of manifest.templates) {
    const parts: Record<string, string> = {}
    for (const [part, path] of Object.entries(entry.files)) {
      const text = read(path)
      if (text !== undefined) parts[part] = text
    }
    const template: Template = { entry, parts }
    if (Object.keys(parts).length === Object.keys(entry.files).length) problems.push(...templateProblems(template))
    templates.push(template)
  }
  if (problems.length > 0) throw new TemplateManifestError(problems)
  return { manifest, templates }
}

/** The template with this id, at `version` or else at its highest version. */
export function findTemplate(set: TemplateSet, id: string, version?: number): Template | undefined {
  let best: Template | undefined
  for (const t of set.templates) {
    if (t.entry.id !== id) continue
    if (version !== undefined) {
      if (t.entry.version === version) return t
    } else if (best === undefined || t.entry.version > best.entry.version) {
      best = t
    }
  }
  return best
}

/** As findTemplate, but a missing template is an error. */
export function getTemplate(set: TemplateSet, id: string, version?: number): Template {
  const found = findTemplate(set, id, version)
  if (found === undefined) {
    throw new TemplateManifestError([`no template ${version === undefined ? id : templateRef({ id, version })}`])
  }
  return found
}
