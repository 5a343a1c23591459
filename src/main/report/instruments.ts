import { allInstruments } from '../../shared/instruments'
import { currentAnswerCount } from '../store/annotations'
import type { Db } from '../store/database'
import { itemSplits, labelledPairCount } from '../store/items'
import { activeCallCount } from '../store/model-calls'

export interface ReportableInstrument {
  id: string
  title: string
  item_kind: string
  n_annotations: number
  n_calls: number
  /** Items carrying their own reference label (proposal pairs), which any pairwise instrument can be scored on. */
  n_labelled_items: number
}

/** Instruments with something to report on: answers, judge calls, or labelled items; and the splits present. */
export function auditableInstruments(db: Db): { instruments: ReportableInstrument[]; splits: string[] } {
  const labelledPairs = labelledPairCount(db)
  const instruments = allInstruments().map((inst) => {
    const id = inst.id
    return {
      id,
      title: inst.title,
      item_kind: inst.itemKind,
      n_annotations: currentAnswerCount(db, id),
      n_calls: activeCallCount(db, id),
      n_labelled_items: id === 'pairwise-preference' ? labelledPairs : 0
    }
  }).filter((i) => i.n_annotations + i.n_calls + i.n_labelled_items > 0)
  const splits = itemSplits(db)
  return { instruments, splits }
}
