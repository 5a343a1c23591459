import type { Db } from '../store/database'
import { getItemByExternalId, type ItemRow } from '../store/items'

/**
 * The payload an instrument works on: the item's own payload plus what it needs from other items
 * (a hypothesis set is judged against its task's background and reference finding, attached as `task`).
 */
export function payloadWithContext(db: Db, row: Pick<ItemRow, 'kind' | 'payload'>): Record<string, unknown> {
  const payload = JSON.parse(row.payload) as Record<string, unknown>
  if (row.kind === 'hypothesis-set' && typeof payload.task_id === 'string' && payload.task === undefined) {
    const task = getItemByExternalId(db, 'rediscovery-task', payload.task_id)
    if (task) payload.task = JSON.parse(task.payload)
  }
  return payload
}
