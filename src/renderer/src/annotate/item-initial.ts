import type { BlindedItem } from '../../../shared/contract/annotation-schemas'
import type { WrittenText } from '../../../shared/instruments/written-texts'
import { readBackup, setBackupAside } from './draft-backup'

/** Where an opened item's form starts from, newest first: this browser's copy, main's draft, the last answer. */
export interface InitialForm {
  data: unknown
  activeMs: number
  source: 'backup' | 'draft' | 'answer' | 'empty'
  /** A draft made for an earlier layout of the item that could not be carried over: when it was saved, what it says. */
  setAside: { at: string; texts: ReadonlyArray<WrittenText> } | null
}

export function initialForm(
  item: BlindedItem,
  backupKey: string,
  empty: () => unknown,
  written: (data: unknown) => WrittenText[]
): InitialForm {
  let backup = readBackup(backupKey)
  let setAside: InitialForm['setAside'] = item.draftSetAside ? { at: item.draftSetAside.updatedAt, texts: item.draftSetAside.texts } : null
  // A copy entered in another layout than the one now shown would put answers on the wrong sides: only main can map
  // between layouts, so it is kept aside and the annotator told.
  if (backup && item.layout !== undefined && backup.layout !== undefined && backup.layout !== item.layout) {
    setBackupAside(backupKey, backup)
    setAside = { at: backup.at, texts: written(backup.data) }
    backup = null
  }
  if (backup && (!item.draft || backup.at > item.draft.updatedAt)) return { data: backup.data, activeMs: backup.activeMs, source: 'backup', setAside }
  if (item.draft) return { data: item.draft.data, activeMs: item.draft.activeMs, source: 'draft', setAside }
  if (item.answer) return { data: item.answer.judgement, activeMs: 0, source: 'answer', setAside }
  return { data: empty(), activeMs: 0, source: 'empty', setAside }
}
