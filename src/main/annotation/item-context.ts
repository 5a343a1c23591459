import type { Db } from '../store/database'
import { getItemByExternalId, type ItemRow } from '../store/items'

/**
 * The payload an instrument works on: the item's own payload plus what it needs from other items
 * (a hypothesis set is judged against its task's background and reference finding, attached as `task`).
 */
export function payloadWithContext(db: Db, row: Pick<ItemRow, 'kind' | 'payload'>): Record<string, unknown> {
  return payloadWithTask(row, (externalId) => getItemByExternalId(db, 'rediscovery-task', externalId)?.payload ?? null)
}

/** payloadWithContext with the task's payload looked up by `taskPayload` (its external id; null where none). */
export function payloadWithTask(row: Pick<ItemRow, 'kind' | 'payload'>, taskPayload: (externalId: string) => string | null): Record<string, unknown> {
  const payload = JSON.parse(row.payload) as Record<string, unknown>
  if (row.kind === 'hypothesis-set' && typeof payload.task_id === 'string' && payload.task === undefined) {
    const task = taskPayload(payload.task_id)
    if (task !== null) payload.task = JSON.parse(task)
  }
  return payload
}
