import { AssayError } from '../../../shared/errors'
import { withheldLabelPaths } from '../../../shared/items/withheld'
import type { ItemKind, Split } from '../../../shared/items/kinds'
import { getItem, itemFacets, listItems } from '../../store/items'
import { logExposure } from '../../store/exposures'
import { createSplit } from '../../splits/stratified-split'
import type { HandlerGroup } from './types'

export const itemHandlers: HandlerGroup<'items.facets' | 'items.list' | 'items.get' | 'items.reveal' | 'items.split'> = {
  // The same split as `assay split`, by the same code.
  'items.split': (input, ctx) => {
    const plan = createSplit(ctx.project, { testFraction: input.testFraction, seed: input.seed ?? ctx.project.seed, set: input.set, kind: input.kind })
    ctx.events.emit('project.changed', { what: 'items' })
    return plan
  },
  'items.facets': (_input, ctx) => {
    return itemFacets(ctx.project.db)
  },
  'items.list': (input, ctx) => {
    const page = listItems(ctx.project.db, input)
    return { total: page.total, offset: input.offset, rows: page.rows }
  },
  'items.get': (input, ctx) => {
    const row = getItem(ctx.project.db, input.id)
    if (!row) throw new AssayError('not_found', `No item with id ${input.id}`)
    const payload = JSON.parse(row.payload) as Record<string, unknown>
    const kind = row.kind as ItemKind
    const { visible, withheld } = row.split === 'test' ? withholdLabels(kind, payload) : { visible: payload, withheld: [] }
    return { id: row.id, kind, external_id: row.external_id, set_name: row.set_name, split: row.split as Split, title: row.title, payload: visible, withheld }
  },
  'items.reveal': (input, ctx) => {
    const row = getItem(ctx.project.db, input.id)
    if (!row) throw new AssayError('not_found', `No item with id ${input.id}`)
    const payload = JSON.parse(row.payload) as Record<string, unknown>
    const labels: Record<string, unknown> = {}
    for (const path of withheldLabelPaths(row.kind as ItemKind)) {
      const v = readPath(payload, path)
      if (v !== undefined) labels[path] = v
    }
    if (row.split === 'test' && Object.keys(labels).length > 0) {
      ctx.project.write((db) => logExposure(db, row.id, 'label_viewed', 'curator', `revealed ${Object.keys(labels).join(', ')}`))
    }
    return { labels }
  }
}

function readPath(obj: Record<string, unknown>, path: string): unknown {
  let cur: unknown = obj
  for (const k of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined
    cur = (cur as Record<string, unknown>)[k]
  }
  return cur
}

function withholdLabels(kind: ItemKind, payload: Record<string, unknown>) {
  const visible = structuredClone(payload)
  const withheld: string[] = []
  for (const path of withheldLabelPaths(kind)) {
    const keys = path.split('.')
    let cur: Record<string, unknown> | undefined = visible
    for (const k of keys.slice(0, -1)) cur = cur?.[k] as Record<string, unknown> | undefined
    const last = keys[keys.length - 1]!
    if (cur && cur[last] !== undefined && cur[last] !== null) {
      delete cur[last]
      withheld.push(path)
    }
  }
  return { visible, withheld }
}
