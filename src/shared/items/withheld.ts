import type { ItemKind } from './kinds'

/**
 * Fields that are labels (the answer an audit compares against). For items in the test split the curator's
 * item view holds them back; revealing them is logged, because a seen test label is no longer held out.
 */
const WITHHELD: Partial<Record<ItemKind, ReadonlyArray<string>>> = {
  'proposal-pair': ['label', 'label_source', 'probe', 'probe_of', 'a.citations', 'b.citations'],
  idea: ['scores'],
  'preprint-pair': ['same_study', 'label_source']
}

export function withheldLabelPaths(kind: ItemKind): ReadonlyArray<string> {
  return WITHHELD[kind] ?? []
}
