import type { BlindedItem } from '../../../shared/contract/annotation-schemas'
import { readBackup } from './draft-backup'

/** Where an opened item's form starts from, newest first: this browser's copy, main's draft, the last answer. */
export interface InitialForm {
  data: unknown
  activeMs: number
  source: 'backup' | 'draft' | 'answer' | 'empty'
}

export function initialForm(item: BlindedItem, backupKey: string, empty: () => unknown): InitialForm {
  const backup = readBackup(backupKey)
  if (backup && (!item.draft || backup.at > item.draft.updatedAt)) return { data: backup.data, activeMs: backup.activeMs, source: 'backup' }
  if (item.draft) return { data: item.draft.data, activeMs: item.draft.activeMs, source: 'draft' }
  if (item.answer) return { data: item.answer.judgement, activeMs: 0, source: 'answer' }
  return { data: empty(), activeMs: 0, source: 'empty' }
}
