import type { BlindedItem } from '../../../shared/contract/annotation-schemas'
import { readBackup, setBackupAside } from './draft-backup'

/** Where an opened item's form starts from, newest first: this browser's copy, main's draft, the last answer. */
export interface InitialForm {
  data: unknown
  activeMs: number
  source: 'backup' | 'draft' | 'answer' | 'empty'
  /** When a draft made for an earlier layout of the item could not be carried over: when it was saved. */
  setAside: string | null
}

export function initialForm(item: BlindedItem, backupKey: string, empty: () => unknown): InitialForm {
  let backup = readBackup(backupKey)
  let setAside = item.draftSetAside?.updatedAt ?? null
  // A copy entered in another layout than the one now shown would put answers on the wrong sides: only main can map
  // between layouts, so it is kept aside and the annotator told.
  if (backup && item.layout !== undefined && backup.layout !== undefined && backup.layout !== item.layout) {
    setBackupAside(backupKey, backup)
    setAside = backup.at
    backup = null
  }
  if (backup && (!item.draft || backup.at > item.draft.updatedAt)) return { data: backup.data, activeMs: backup.activeMs, source: 'backup', setAside }
  if (item.draft) return { data: item.draft.data, activeMs: item.draft.activeMs, source: 'draft', setAside }
  if (item.answer) return { data: item.answer.judgement, activeMs: 0, source: 'answer', setAside }
  return { data: empty(), activeMs: 0, source: 'empty', setAside }
}
