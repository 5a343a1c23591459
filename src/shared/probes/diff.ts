import { diffWordsWithSpace } from 'diff'

/** One run of the word diff between an original and its probe; `text` is verbatim from one side or the other. */
export interface DiffPart {
  op: 'same' | 'added' | 'removed'
  text: string
}

/** Word-level diff (spaces kept, so concatenating same+removed gives the original and same+added the probe). */
export function textDiff(original: string, probe: string): DiffPart[] {
  return diffWordsWithSpace(original, probe).map((c) => ({
    op: c.added ? 'added' : c.removed ? 'removed' : 'same',
    text: c.value
  }))
}

/** The diff without the unchanged runs' bulk: unchanged text longer than `context` characters on each side is cut. */
export function compactDiff(parts: readonly DiffPart[], context = 60): DiffPart[] {
  return parts.map((p, i) => {
    if (p.op !== 'same' || p.text.length <= 2 * context) return p
    const head = i === 0 ? '' : p.text.slice(0, context)
    const tail = i === parts.length - 1 ? '' : p.text.slice(-context)
    return { op: 'same', text: `${head}…${tail}` }
  })
}

export function changedCharacters(parts: readonly DiffPart[]): number {
  return parts.reduce((n, p) => (p.op === 'same' ? n : n + p.text.length), 0)
}

/** Rebuilds one side from the diff (a check that the diff is complete). */
export function sideOf(parts: readonly DiffPart[], side: 'original' | 'probe'): string {
  const skip = side === 'original' ? 'added' : 'removed'
  return parts.filter((p) => p.op !== skip).map((p) => p.text).join('')
}
