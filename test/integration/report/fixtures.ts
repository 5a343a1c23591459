import { appendAnnotation } from '../../../src/main/store/annotations'
import { ensureAnnotator } from '../../../src/main/store/annotators'
import { logExposure, type ExposureKind } from '../../../src/main/store/exposures'
import { insertItems, type NewItem } from '../../../src/main/store/items'
import type { Project } from '../../../src/main/store/project'
import type { CanonicalPairLabel, ItemKind, Split } from '../../../src/shared/items/kinds'

// Builders that write straight into the project's tables, the way the runner and the importers leave them.

export interface PairSpec {
  id: string
  label?: CanonicalPairLabel | null
  labelSource?: string
  origins?: ['human' | 'ai', 'human' | 'ai']
  generators?: [string | null, string | null]
  set?: string
  split?: Split
  probe?: string
  cohort?: string
}

export function addPairs(project: Project, pairs: readonly PairSpec[]): Map<string, number> {
  const items: NewItem[] = pairs.map((p) => ({
    kind: 'proposal-pair',
    externalId: p.id,
    set: p.set ?? 'pairs',
    split: p.split ?? 'none',
    payload: {
      pair_id: p.id,
      topic: 'allocation',
      a: { markdown: `# A ${p.id}\n\nProposal A.`, ...(p.origins ? { origin: p.origins[0] } : {}), ...(p.generators?.[0] ? { generator: p.generators[0] } : {}) },
      b: { markdown: `# B ${p.id}\n\nProposal B.`, ...(p.origins ? { origin: p.origins[1] } : {}), ...(p.generators?.[1] ? { generator: p.generators[1] } : {}) },
      ...(p.label ? { label: p.label } : {}),
      ...(p.labelSource ? { label_source: p.labelSource } : {}),
      ...(p.probe ? { probe: p.probe } : {}),
      ...(p.cohort ? { cohort: p.cohort } : {})
    }
  }))
  return idsOf(project, items)
}

export function addItems(project: Project, kind: ItemKind, payloads: ReadonlyArray<{ id: string; payload: Record<string, unknown>; split?: Split; set?: string }>): Map<string, number> {
  return idsOf(
    project,
    payloads.map((p) => ({ kind, externalId: p.id, set: p.set ?? 'default', split: p.split ?? 'none', payload: p.payload }))
  )
}

function idsOf(project: Project, items: NewItem[]): Map<string, number> {
  const ids = project.write(() => insertItems(project.db, items))
  return new Map(items.map((item, i) => [item.externalId, ids[i] as number]))
}

let judgeCount = 0

export function addRun(
  project: Project,
  options: { instrument: string; judge?: string; model?: string; provider?: string; company?: string | null; trials?: number; bothOrders?: boolean }
): number {
  const db = project.db
  const name = options.judge ?? `judge-${++judgeCount}`
  return project.write(() => {
    const existing = db.prepare(`SELECT id FROM judges WHERE name = ?`).get(name) as { id: number } | undefined
    const judgeId =
      existing?.id ??
      Number(
        db
          .prepare(`INSERT INTO judges (name, provider, model, company) VALUES (?, ?, ?, ?)`)
          .run(name, options.provider ?? 'openai', options.model ?? 'gpt-test', options.company ?? null).lastInsertRowid
      )
    return Number(
      db
        .prepare(`INSERT INTO runs (instrument_id, judge_id, template_id, template_version, seed, both_orders, trials, status) VALUES (?, ?, ?, 1, '42', ?, ?, 'done')`)
        .run(options.instrument, judgeId, `${options.instrument}-template`, options.bothOrders ? 1 : 0, options.trials ?? 1).lastInsertRowid
    )
  })
}

export interface CallSpec {
  item: number
  status?: 'ok' | 'failed' | 'unparseable' | 'pending'
  judgement?: unknown
  trial?: number
  order?: number
  swapped?: boolean
}

export function addCalls(project: Project, runId: number, calls: readonly CallSpec[]): void {
  const stmt = project.db.prepare(
    `INSERT INTO model_calls (run_id, item_id, trial, order_index, request_hash, display, prompt, judgement, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
  )
  project.write(() => {
    for (const c of calls) {
      const status = c.status ?? 'ok'
      stmt.run(
        runId,
        c.item,
        c.trial ?? 0,
        c.order ?? 0,
        `hash-${runId}-${c.item}-${c.trial ?? 0}-${c.order ?? 0}`,
        JSON.stringify(c.swapped === undefined ? {} : { swapped: c.swapped }),
        JSON.stringify({ system: null, user: 'prompt' }),
        status === 'ok' ? JSON.stringify(c.judgement) : null,
        status
      )
    }
  })
}

export function annotate(
  project: Project,
  instrument: string,
  entries: ReadonlyArray<{ item: number; judgement: unknown; swapped?: boolean }>,
  who: { human: string } | { model: string } | { reference: string }
): void {
  const annotatorId = 'human' in who ? ensureAnnotator(project, who.human).id : null
  project.write(() => {
    for (const e of entries) {
      appendAnnotation(project.db, {
        itemId: e.item,
        instrumentId: instrument,
        instrumentVersion: 1,
        annotatorId,
        sourceKind: 'human' in who ? 'human' : 'model' in who ? 'model' : 'reference',
        sourceName: 'human' in who ? who.human : 'model' in who ? who.model : who.reference,
        judgement: e.judgement,
        ...(e.swapped === undefined ? {} : { display: { swapped: e.swapped } }),
        origin: 'import'
      })
    }
  })
}

export function expose(project: Project, itemId: number, kind: ExposureKind = 'label_viewed'): void {
  project.write(() => logExposure(project.db, itemId, kind, 'curator'))
}

/** The canonical verdict naming `side` as better. */
export function verdictFor(side: 'a' | 'b', strength: 'better' | 'much_better' = 'better'): CanonicalPairLabel {
  return `${side}_${strength}` as CanonicalPairLabel
}
