import type { z } from 'zod'
import { judgeInputSchema, judgeOptionsSchema, type JudgeInput, type JudgeOptions } from '../../shared/contract/run-operations'
import { AssayError } from '../../shared/errors'
import { companyOf } from '../providers/companies'
import type { JudgeConfig, ProviderKind } from '../providers/types'
import type { Db, WritableDB } from '../store/database'
import { insertJudge, judgeRow, judgeRowByName, judgeRows, type JudgeRow } from '../store/judges'

export type { JudgeInput, JudgeOptions }

export interface Judge {
  id: number
  name: string
  provider: ProviderKind
  model: string
  baseUrl: string | null
  /** As configured; null when it is inferred from the model name. */
  company: string | null
  /** The company panel rules use: the configured one, else inferred. */
  effectiveCompany: string
  options: JudgeOptions
  createdAt: string
}

function fromRow(r: JudgeRow): Judge {
  const provider = r.provider as ProviderKind
  const options = judgeOptionsSchema.parse(JSON.parse(r.options))
  return {
    id: r.id,
    name: r.name,
    provider,
    model: r.model,
    baseUrl: r.base_url,
    company: r.company,
    effectiveCompany: companyOf({ provider, model: r.model, ...(r.company ? { company: r.company } : {}), ...(r.base_url ? { baseUrl: r.base_url } : {}) }),
    options,
    createdAt: r.created_at
  }
}

/** How the provider is called for this judge (the key's name stays behind). */
export function judgeConfig(j: Judge): JudgeConfig {
  const o = j.options
  return {
    provider: j.provider,
    model: j.model,
    ...(j.baseUrl ? { baseUrl: j.baseUrl } : {}),
    ...(j.company ? { company: j.company } : {}),
    ...(o.reasoningEffort !== undefined ? { reasoningEffort: o.reasoningEffort } : {}),
    ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
    ...(o.maxTokens !== undefined ? { maxTokens: o.maxTokens } : {}),
    ...(o.structuredOutput !== undefined ? { structuredOutput: o.structuredOutput } : {})
  }
}

export function listJudges(db: Db): Judge[] {
  return judgeRows(db).map(fromRow)
}

export function getJudge(db: Db, id: number): Judge {
  const row = judgeRow(db, id)
  if (!row) throw new AssayError('not_found', `No judge with id ${id}`)
  return fromRow(row)
}

export function findJudgeByName(db: Db, name: string): Judge | undefined {
  const row = judgeRowByName(db, name)
  return row ? fromRow(row) : undefined
}

function validated(input: JudgeInput): z.output<typeof judgeInputSchema> {
  const parsed = judgeInputSchema.safeParse(input)
  if (!parsed.success) {
    throw new AssayError('invalid_input', 'Invalid judge configuration', parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })))
  }
  if (parsed.data.provider === 'openai-compatible' && !parsed.data.baseUrl) {
    throw new AssayError('invalid_input', 'An OpenAI-compatible judge needs a base URL', [{ field: 'baseUrl', message: 'required' }])
  }
  return parsed.data
}

function sameSettings(j: Judge, c: z.output<typeof judgeInputSchema>): boolean {
  return (
    j.provider === c.provider &&
    j.model === c.model &&
    (j.baseUrl ?? null) === (c.baseUrl ?? null) &&
    (j.company ?? null) === (c.company ?? null) &&
    JSON.stringify(sortKeys(j.options)) === JSON.stringify(sortKeys(c.options))
  )
}

function sortKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)))
}

/** Adds a judge configuration; a name already taken is refused. The caller owns the transaction. */
export function createJudge(db: WritableDB, input: JudgeInput): Judge {
  const c = validated(input)
  const name = c.name ?? uniqueName(db, c.model)
  if (findJudgeByName(db, name)) throw new AssayError('conflict', `A judge named "${name}" exists already`)
  const id = insertJudge(db, { name, provider: c.provider, model: c.model, baseUrl: c.baseUrl ?? null, company: c.company ?? null, options: c.options })
  return getJudge(db, id)
}

/**
 * The judge with exactly these settings, created when there is none (the command line names judges by their
 * settings). A given name must match the settings of the judge that has it.
 */
export function ensureJudge(db: WritableDB, input: JudgeInput): Judge {
  const c = validated(input)
  if (c.name) {
    const named = findJudgeByName(db, c.name)
    if (named) {
      if (!sameSettings(named, c)) throw new AssayError('conflict', `The judge "${c.name}" has other settings; choose another name`)
      return named
    }
    return createJudge(db, c)
  }
  const existing = listJudges(db).find((j) => sameSettings(j, c))
  return existing ?? createJudge(db, c)
}

/** A settings-free lookup for a dry run, which writes nothing: the matching judge, or the settings as a draft. */
export function draftJudge(db: Db, input: JudgeInput): Judge {
  const c = validated(input)
  const existing = c.name ? findJudgeByName(db, c.name) : listJudges(db).find((j) => sameSettings(j, c))
  if (existing) return existing
  return {
    id: 0,
    name: c.name ?? c.model,
    provider: c.provider,
    model: c.model,
    baseUrl: c.baseUrl ?? null,
    company: c.company ?? null,
    effectiveCompany: companyOf({ provider: c.provider, model: c.model, ...(c.company ? { company: c.company } : {}), ...(c.baseUrl ? { baseUrl: c.baseUrl } : {}) }),
    options: c.options,
    createdAt: ''
  }
}

function uniqueName(db: Db, model: string): string {
  if (!findJudgeByName(db, model)) return model
  for (let i = 2; ; i++) {
    const name = `${model} #${i}`
    if (!findJudgeByName(db, name)) return name
  }
}
