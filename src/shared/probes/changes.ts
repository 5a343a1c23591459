import { textDiff } from './diff'

// The changes between an original and its probe as spans of each text, for showing them where they sit in the
// rendered texts. A change that touches a formula covers the whole formula, which is rendered (and read) whole.

export interface Span {
  start: number
  end: number
}

/** One change: what it takes out of the original and what it puts in the probe (either may be empty). */
export interface ProbeChange {
  original: Span
  probe: Span
}

/** Formulas of a Markdown text: `$$…$$`, `$…$`, `\(…\)` and `\[…\]` (one or two backslashes). */
const FORMULA = /\$\$[^]*?\$\$|\$[^$\n]+?\$|\\\\?\([^]*?\\\\?\)|\\\\?\[[^]*?\\\\?\]/g

function formulas(text: string): Span[] {
  return [...text.matchAll(FORMULA)].map((m) => ({ start: m.index, end: m.index + m[0].length }))
}

/** `span` grown to cover every formula it touches (an empty span inside a formula touches it too). */
function widen(span: Span, within: ReadonlyArray<Span>): Span {
  let { start, end } = span
  for (const f of within) {
    const touches = span.start === span.end ? f.start < span.start && span.start < f.end : f.start < span.end && span.start < f.end
    if (touches) {
      start = Math.min(start, f.start)
      end = Math.max(end, f.end)
    }
  }
  return { start, end }
}

/** The changes from `original` to `probe`, word by word, each widened to whole formulas and overlapping ones merged. */
export function probeChanges(original: string, probe: string): ProbeChange[] {
  const raw: ProbeChange[] = []
  let o = 0
  let p = 0
  let open: ProbeChange | null = null
  for (const part of textDiff(original, probe)) {
    const n = part.text.length
    if (part.op === 'same') {
      if (open) raw.push(open)
      open = null
      o += n
      p += n
      continue
    }
    open ??= { original: { start: o, end: o }, probe: { start: p, end: p } }
    if (part.op === 'removed') {
      o += n
      open.original.end = o
    } else {
      p += n
      open.probe.end = p
    }
  }
  if (open) raw.push(open)
  const inOriginal = formulas(original)
  const inProbe = formulas(probe)
  const merged: ProbeChange[] = []
  for (const c of raw) {
    const next = { original: widen(c.original, inOriginal), probe: widen(c.probe, inProbe) }
    const last = merged[merged.length - 1]
    if (last && (next.original.start <= last.original.end || next.probe.start <= last.probe.end)) {
      last.original.end = Math.max(last.original.end, next.original.end)
      last.probe.end = Math.max(last.probe.end, next.probe.end)
    } else merged.push(next)
  }
  return merged
}
