import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { userTemplateInputSchema, type TemplateSummary, type UserTemplateInput } from '../../shared/contract/run-operations'
import { AssayError } from '../../shared/errors'
import { declaredInstruments, getInstrument, isInstrumentId, type InstrumentId } from '../../shared/instruments'
import {
  buildTemplateSet,
  findTemplate,
  parseTemplateManifestJson,
  placeholdersIn,
  templateRef,
  type AnswerFormat,
  type Template,
  type TemplateSet
} from '../../shared/templates'
import { resourcePath } from '../paths'
import type { Db, WritableDB } from '../store/database'
import { VALUE_NAMES } from './requests'
import { allTemplateRows, hasTemplateVersion, insertTemplate, latestTemplateVersion, templateRows, type UserTemplateRow } from '../store/templates'

let builtIns: TemplateSet | undefined

/** The built-in templates of resources/templates, read once. */
export function builtInTemplates(): TemplateSet {
  if (!builtIns) {
    const dir = resourcePath('templates')
    const read = (path: string) => readFileSync(join(dir, path), 'utf8')
    builtIns = buildTemplateSet(parseTemplateManifestJson(read('index.json')), read)
  }
  return builtIns
}

export interface ResolvedTemplate {
  template: Template
  builtIn: boolean
}

const USER_TOKEN = /\{\{([a-z][a-z0-9_]*)\}\}/g

/** A user template as a Template: its `{{name}}` tokens are its placeholders. */
function userTemplate(r: UserTemplateRow): Template {
  const parts: Record<string, string> = { user: r.user_text }
  if (r.system_text !== null && r.system_text !== '') parts.system = r.system_text
  const names = new Set<string>()
  for (const text of Object.values(parts)) for (const m of text.matchAll(USER_TOKEN)) names.add(m[1]!)
  return {
    entry: {
      id: r.template_id,
      version: r.version,
      kind: 'request',
      instrument: r.instrument_id as never,
      answerFormat: r.answer_format as AnswerFormat,
      grokSuffix: false,
      placeholders: [...names].map((name) => ({ name, token: `{{${name}}}`, description: 'user template placeholder' })),
      source: { seed: null, section: 'user template' },
      files: Object.fromEntries(Object.keys(parts).map((part) => [part, `${r.template_id}/v${r.version}.${part}.txt`])),
      note: r.note ?? 'A template added to this project.'
    },
    parts
  }
}

/**
 * A declared instrument's prompt as a Template: its id and version are the instrument's, its `{{name}}` tokens the
 * values its requests supply. Only the current version is known (older ones are in the stored declarations).
 */
function declaredTemplate(id: string, version?: number): Template | undefined {
  if (!isInstrumentId(id)) return undefined
  const inst = getInstrument(id)
  if (!inst.declared || (version !== undefined && version !== inst.version)) return undefined
  const { system, user } = inst.declared.prompt
  const parts: Record<string, string> = system ? { system, user } : { user }
  const names = Object.keys(inst.declared.values({}))
  return {
    entry: {
      id: inst.id,
      version: inst.version,
      kind: 'request',
      instrument: inst.id as never,
      answerFormat: 'json',
      grokSuffix: false,
      placeholders: names.map((name) => ({ name, token: `{{${name}}}`, description: 'a value of the declared instrument' })),
      source: { seed: null, section: 'declared instrument' },
      files: Object.fromEntries(Object.keys(parts).map((part) => [part, `${inst.id}/v${inst.version}.${part}.txt`])),
      note: inst.declared.declaration.prompt ? 'The prompt of the instrument’s declaration.' : 'The prompt derived from the instrument’s fields.'
    },
    parts
  }
}

/** Parses `id` or `id@version`. */
export function parseTemplateRef(ref: string): { id: string; version?: number } {
  const m = /^([a-z0-9]+(?:-[a-z0-9]+)*)(?:@(\d+))?$/.exec(ref.trim())
  if (!m) throw new AssayError('invalid_input', `"${ref}" is not a template name (id or id@version)`)
  return m[2] === undefined ? { id: m[1]! } : { id: m[1]!, version: Number(m[2]) }
}

/** A template by id, at a version or else the highest: built-in templates first, then the project's own. */
export function resolveTemplate(db: Db, id: string, version?: number): ResolvedTemplate {
  const builtIn = findTemplate(builtInTemplates(), id, version)
  const rows = templateRows(db, id, version)
  const user = rows[0] ? userTemplate(rows[0]) : undefined
  if (builtIn && (!user || builtIn.entry.version >= user.entry.version)) return { template: builtIn, builtIn: true }
  if (user) return { template: user, builtIn: false }
  const declared = declaredTemplate(id, version)
  if (declared) return { template: declared, builtIn: false }
  throw new AssayError('not_found', `No template ${version === undefined ? id : `${id}@${version}`}`)
}

export type { TemplateSummary }

function summary(t: Template, builtIn: boolean): TemplateSummary {
  return {
    ref: templateRef(t.entry),
    id: t.entry.id,
    version: t.entry.version,
    instrument: t.entry.instrument,
    answerFormat: t.entry.answerFormat,
    builtIn,
    placeholders: t.entry.placeholders.map((p) => p.name),
    system: t.parts.system ?? null,
    user: t.parts.user ?? '',
    note: t.entry.note ?? null
  }
}

/** Every request template that asks an instrument (built-in and the project's own). */
export function listTemplates(db: Db, instrument?: string): TemplateSummary[] {
  const own = allTemplateRows(db).map((r) => summary(userTemplate(r), false))
  const built = builtInTemplates()
    .templates.filter((t) => t.entry.kind === 'request' && isInstrumentId(t.entry.instrument))
    .map((t) => summary(t, true))
  const declared = declaredInstruments().flatMap((inst) => {
    const t = declaredTemplate(inst.id)
    return t ? [summary(t, false)] : []
  })
  return [...built, ...own, ...declared].filter((t) => instrument === undefined || t.instrument === instrument)
}

export type { UserTemplateInput }

/**
 * Stores a template of the curator's own, or a new version of one. Built-in templates are read-only: a built-in
 * id@version cannot be taken. Placeholders are `{{name}}` with the names the instrument's requests supply.
 */
export function addUserTemplate(db: WritableDB, input: UserTemplateInput): TemplateSummary {
  const c = userTemplateInputSchema.parse(input)
  const instrument = c.instrument as InstrumentId
  const allowed = VALUE_NAMES[instrument]
  if (!allowed) throw new AssayError('invalid_input', `Models are not asked "${instrument}"`, [{ field: 'instrument', message: 'no model protocol' }])
  const problems: { field: string; message: string }[] = []
  for (const [field, text] of [['system', c.system ?? ''], ['user', c.user]] as const) {
    if (text.includes('\r')) problems.push({ field, message: 'use LF line ends' })
    for (const m of text.matchAll(USER_TOKEN)) {
      if (!allowed.includes(m[1]!)) problems.push({ field, message: `{{${m[1]}}} is not a value of ${instrument} (known: ${allowed.join(', ')})` })
    }
  }
  if (problems.length) throw new AssayError('invalid_input', 'The template uses unknown placeholders', problems)
  const latestOwn = latestTemplateVersion(db, c.id)
  const latestBuiltIn = findTemplate(builtInTemplates(), c.id)?.entry.version ?? 0
  const version = c.version ?? Math.max(latestOwn, latestBuiltIn) + 1
  if (findTemplate(builtInTemplates(), c.id, version)) {
    throw new AssayError('conflict', `${c.id}@${version} is a built-in template and cannot be replaced; add version ${latestBuiltIn + 1} or later`)
  }
  if (version <= latestOwn && hasTemplateVersion(db, c.id, version)) {
    throw new AssayError('conflict', `${c.id}@${version} exists; a published version is never edited, add a new one`)
  }
  insertTemplate(db, { id: c.id, version, instrument, system: c.system ?? null, user: c.user, answerFormat: c.answerFormat, note: c.note ?? null })
  return summary(resolveTemplate(db, c.id, version).template, false)
}

/** The values a template uses, out of the values a request supplies. */
export function usedValues(template: Template, values: Readonly<Record<string, string>>): Record<string, string> {
  const text = Object.values(template.parts).join('\u0000')
  const used: Record<string, string> = {}
  for (const p of placeholdersIn(text, template.entry.placeholders)) {
    const v = values[p.name]
    if (v !== undefined) used[p.name] = v
  }
  return used
}
