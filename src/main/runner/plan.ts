import { z } from 'zod'
import { AssayError } from '../../shared/errors'
import { getInstrument, type AnyInstrument, type InstrumentId, unknownInstrumentMessage } from '../../shared/instruments'
import type { Split } from '../../shared/items/kinds'
import { finishForModel, renderRequest, templateRef, type AnswerFormat, type Template } from '../../shared/templates'
import { payloadWithContext } from '../annotation/item-context'
import type { Db } from '../store/database'
import type { PlannedCall, StoredPrompt } from '../store/model-calls'
import { canonicalJson, requestHash } from './hash'
import { itemsWhere, type ItemSelection } from '../store/item-selection'
import { judgeConfig, type Judge } from './judges'
import { requestUnits, SkipItem, valueNamesOf } from './requests'
import { usedValues } from './templates'
import { sha256Hex } from '../../shared/protocol'

/** What a run asks, of whom, about which items: everything that decides its requests. */
export interface RunDefinition {
  instrument: AnyInstrument
  judge: Judge
  template: Template
  selection: { set?: string | undefined; split?: Split | undefined; limit?: number | undefined }
  seed: string
  /** Display-order key; '' reproduces a published run keyed by the item id alone. */
  viewer: string
  bothOrders: boolean
  trials: number
}

export type { PlannedCall, StoredPrompt } from '../store/model-calls'

export interface SkippedItem {
  itemId: number
  externalId: string
  reason: string
}

export interface Plan {
  items: number
  calls: PlannedCall[]
  skipped: SkippedItem[]
}

const schemaCache = new Map<InstrumentId, Record<string, unknown> | null>()

/** The instrument's judgement schema as JSON Schema, for providers' structured output; null when it has no such form. */
export function judgementJsonSchema(instrument: AnyInstrument): Record<string, unknown> | null {
  if (!schemaCache.has(instrument.id)) {
    let schema: Record<string, unknown> | null = null
    try {
      const { $schema: _drop, ...rest } = z.toJSONSchema(instrument.judgement, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>
      schema = rest
    } catch {
      schema = null
    }
    schemaCache.set(instrument.id, schema)
  }
  return schemaCache.get(instrument.id) ?? null
}

/** The answer format of a template's requests; stage requests leave it to a fragment and are not judging requests. */
export function answerFormatOf(template: Template): AnswerFormat {
  return template.entry.answerFormat ?? 'json'
}

/** A key that names the definition; the command line resumes the unfinished run with the same key. */
export function definitionKey(def: RunDefinition): string {
  return sha256Hex(
    canonicalJson({
      instrument: def.instrument.id,
      instrumentVersion: def.instrument.version,
      judge: def.judge.id,
      template: templateRef(def.template.entry),
      selection: def.selection,
      seed: def.seed,
      viewer: def.viewer,
      bothOrders: def.bothOrders,
      trials: def.trials
    })
  )
}

export function checkDefinition(def: RunDefinition): void {
  const problems: { field: string; message: string }[] = []
  if (!valueNamesOf(def.instrument)) problems.push({ field: 'instrument', message: `models are not asked ${def.instrument.id}` })
  if (def.template.entry.kind !== 'request') problems.push({ field: 'template', message: 'a fragment is not a request' })
  if (def.template.entry.instrument !== def.instrument.id) {
    problems.push({ field: 'template', message: `${templateRef(def.template.entry)} asks ${def.template.entry.instrument}, not ${def.instrument.id}` })
  }
  if (!Number.isInteger(def.trials) || def.trials < 1) problems.push({ field: 'trials', message: 'at least 1' })
  if (problems.length) throw new AssayError('invalid_input', problems.map((p) => p.message).join('; '), problems)
}

interface ItemRowLite {
  id: number
  kind: string
  external_id: string
  payload: string
}

/** The items of the selection, in id order. */
export function selectItems(db: Db, instrument: AnyInstrument, selection: RunDefinition['selection']): ItemRowLite[] {
  return selectedItemsOfKind<ItemRowLite>(db, instrument.itemKind, selection, 'id, kind, external_id, payload')
}

/** Items of one kind in a set and split (either left open), the first `limit` in id order, with the columns named. */
export function selectedItemsOfKind<Row>(db: Db, kind: string, selection: ItemSelection, columns: string): Row[] {
  return itemsWhere<Row>(db, columns, ['kind = ?'], [kind], selection, selection.limit)
}

/** Every call of a run, rendered and hashed; nothing is written or sent. */
export function planRun(db: Db, def: RunDefinition): Plan {
  checkDefinition(def)
  const config = judgeConfig(def.judge)
  const format = answerFormatOf(def.template)
  const jsonSchema = format === 'json' && config.structuredOutput ? judgementJsonSchema(def.instrument) : null
  const ref = templateRef(def.template.entry)
  const rows = selectItems(db, def.instrument, def.selection)
  const calls: PlannedCall[] = []
  const skipped: SkippedItem[] = []
  let items = 0
  for (const row of rows) {
    const payload = payloadWithContext(db, row as never)
    if (def.instrument.accepts && !def.instrument.accepts(payload as never)) continue
    items++
    let units
    try {
      units = requestUnits(def.instrument, def.template, payload, { seed: def.seed, viewer: def.viewer, externalId: row.external_id }, { bothOrders: def.bothOrders })
    } catch (e) {
      if (e instanceof SkipItem) {
        skipped.push({ itemId: row.id, externalId: row.external_id, reason: e.message })
        continue
      }
      throw e
    }
    for (const unit of units) {
      const rendered = finishForModel(def.template.entry, renderRequest(def.template, usedValues(def.template, unit.values)), config.model, format)
      const prompt: StoredPrompt = { ...(rendered.system !== undefined ? { system: rendered.system } : {}), user: rendered.user, template: ref, format }
      for (let trial = 0; trial < def.trials; trial++) {
        calls.push({
          itemId: row.id,
          externalId: row.external_id,
          trial,
          orderIndex: unit.orderIndex,
          display: unit.display,
          prompt,
          ...(jsonSchema ? { jsonSchema } : {}),
          hash: requestHash(config, { system: rendered.system, user: rendered.user, jsonSchema: jsonSchema ?? undefined, trial })
        })
      }
    }
  }
  return { items, calls, skipped }
}

export function resolveInstrument(id: string): AnyInstrument {
  try {
    return getInstrument(id)
  } catch {
    throw new AssayError('invalid_input', unknownInstrumentMessage(id), [{ field: 'instrument', message: 'unknown' }])
  }
}
