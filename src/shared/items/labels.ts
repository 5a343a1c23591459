// The fixed vocabularies of items, without their schemas (kinds.ts builds those): screens that only list or show
// them load no schema library.

export const ORIGINS = ['human', 'ai'] as const

export const CANONICAL_PAIR_LABELS = ['a_much_better', 'a_better', 'b_better', 'b_much_better'] as const
export type CanonicalPairLabel = (typeof CANONICAL_PAIR_LABELS)[number]

export const ORIGIN_PAIR_LABELS = ['human_much_better', 'human_better', 'ai_better', 'ai_much_better'] as const
export type OriginPairLabel = (typeof ORIGIN_PAIR_LABELS)[number]

export const SPLITS = ['dev', 'test', 'none'] as const
export type Split = (typeof SPLITS)[number]

/** Canonical label <-> origin label, given which side is human. */
export function originLabelFromCanonical(label: CanonicalPairLabel, aOrigin: 'human' | 'ai'): OriginPairLabel {
  const aWins = label.startsWith('a_')
  const strength = label.includes('much') ? 'much_better' : 'better'
  const winner = aWins ? aOrigin : aOrigin === 'human' ? 'ai' : 'human'
  return `${winner}_${strength}` as OriginPairLabel
}

export function canonicalFromOriginLabel(label: OriginPairLabel, aOrigin: 'human' | 'ai'): CanonicalPairLabel {
  const winner = label.startsWith('human') ? 'human' : 'ai'
  const strength = label.includes('much') ? 'much_better' : 'better'
  const side = winner === aOrigin ? 'a' : 'b'
  return `${side}_${strength}` as CanonicalPairLabel
}
