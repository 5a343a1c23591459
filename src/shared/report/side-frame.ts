/**
 * Pair fields (verdicts, sides) are reported in one frame, the same as the item browser and adjudication: canonical
 * A/B, where a is the pair's proposal A as imported, whichever side anyone was shown it on. The note says so beside
 * any field whose declared scale names sides.
 */
export function sideFrameNote(categories: ReadonlyArray<unknown> | null | undefined): string {
  const names = (categories ?? []).map(String)
  const sided = names.some((c) => c === 'a' || c === 'b' || /^(a|b)_/.test(c))
  return sided ? ' · sides in canonical A/B (a is proposal A as imported, whichever side it was shown on)' : ''
}
