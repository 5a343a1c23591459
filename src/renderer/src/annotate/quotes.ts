import { containsSpan, quoteFragmentsIn } from '../../../shared/instruments/common'
import type { Widget } from '../../../shared/instruments/types'
import { getAt } from './paths'

// Quotes (evidence, cue excerpts, support from the background) must be exact spans of the text the annotator was
// shown. These helpers decide which shown text a quote is taken from and offer its sentences to pick from, so a
// quote can be chosen from the keyboard without selecting text with a mouse.

export type QuoteWidget = Extract<Widget, { kind: 'quote' }>

export interface QuoteSource {
  /** Path of the text in the blinded view, e.g. `b.markdown` or `question`. */
  path: string
  label: string
  text: string
}

export function sourceLabel(path: string): string {
  const head = path.split('.')[0] ?? path
  // One-letter view keys are the sides of a pair as shown (a = left, b = right); messages name them as shown.
  if (head === 'a') return 'the left proposal (A)'
  if (head === 'b') return 'the right proposal (B)'
  return head.replace(/_/g, ' ')
}

/**
 * The texts a quote may come from. Where a list entry names its side (`side: 'a' | 'b'`) and the widget lists one
 * source per side, only that side's text counts, as main checks the quote against that proposal alone.
 */
export function quoteSources(widget: QuoteWidget, view: Record<string, unknown>, entry: unknown): QuoteSource[] {
  const all = widget.source
    .map((path) => ({ path, label: sourceLabel(path), text: getAt(view, path) }))
    .filter((s): s is QuoteSource => typeof s.text === 'string' && s.text.length > 0)
  const side = entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>).side : undefined
  if (typeof side === 'string' && all.length > 1) {
    const own = all.filter((s) => s.path.split('.')[0] === side)
    if (own.length) return own
  }
  return all
}

/** The side a source belongs to, where the view is a pair (`a.markdown` -> 'a'). */
export function sideOfSource(path: string): string | null {
  const head = path.split('.')[0] ?? ''
  return head.length === 1 ? head : null
}

/**
 * Null when `quote` is acceptable, else the message shown beside the field. A single-source quote must be one exact
 * span; where the instrument accepts fragments (several sources, or a list of quotes) each fragment must be exact.
 */
export function quoteProblem(widget: QuoteWidget, quote: string, sources: ReadonlyArray<QuoteSource>, sideFixed: boolean): string | null {
  if (!quote.trim()) return null
  const texts = sources.map((s) => s.text)
  const lenient = widget.many === true || (sources.length > 1 && !sideFixed)
  const ok = lenient ? quoteFragmentsIn(texts, quote) : texts.some((t) => containsSpan(t, quote))
  if (ok) return null
  const where = sources.map((s) => s.label).join(' or ') || 'the shown text'
  return `Not an exact quote of ${where}.`
}

const LINE_PREFIX = /^\s*(?:#{1,6}\s+|[-*+]\s+|>\s*|\d+[.)]\s+|\|\s*)/

/** Sentences (and table cells' lines) of a text, each an exact span of it, for the quote picker. */
export function sentencesOf(text: string): string[] {
  const out: string[] = []
  for (const rawLine of text.split('\n')) {
    const line = rawLine.replace(LINE_PREFIX, '').trim()
    if (line.length < 3) continue
    for (const sentence of line.split(/(?<=[.!?])\s+(?=["'([A-Z0-9])/)) {
      const s = sentence.trim()
      if (s.length >= 3 && text.includes(s)) out.push(s)
    }
  }
  return out
}

export interface QuoteCandidate {
  text: string
  source: QuoteSource
  /** The typed words themselves, found verbatim in the source. */
  exact: boolean
}

function fold(s: string): string {
  return s.replace(/\s+/g, ' ').trim().toLowerCase()
}

/** What the picker offers for the typed filter: the typed words when they are an exact span, then matching sentences. */
export function quoteCandidates(sources: ReadonlyArray<QuoteSource>, filter: string, limit = 60): QuoteCandidate[] {
  const wanted = fold(filter)
  const out: QuoteCandidate[] = []
  if (filter.trim()) {
    for (const source of sources) {
      if (containsSpan(source.text, filter)) out.push({ text: filter.replace(/\s+/g, ' ').trim(), source, exact: true })
    }
  }
  for (const source of sources) {
    for (const sentence of sentencesOf(source.text)) {
      if (out.length >= limit) return out
      if (!wanted || fold(sentence).includes(wanted)) out.push({ text: sentence, source, exact: false })
    }
  }
  return out
}
