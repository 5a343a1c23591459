import { valueAt, walkFields } from './form-walk'
import type { AnyInstrument } from './types'

export interface WrittenText {
  /** Where it was written, from the top of the form ("Flaw 2 · Note"). */
  label: string
  text: string
}

/**
 * What a person wrote in an answer or draft in their own words (notes, reasons, quotes, code), each with the labels
 * of its field. Choices and scores are left out: they belong to the arrangement the answer was made in. Used to show
 * a draft that cannot be carried over to the arrangement now on screen, so its words can be taken up again.
 */
export function writtenTexts(instrument: AnyInstrument, answer: unknown): WrittenText[] {
  const out: WrittenText[] = []
  walkFields(instrument.form.widgets, answer, (w, path, _entry, labels) => {
    if (w.kind !== 'text' && w.kind !== 'quote' && w.kind !== 'code') return
    const value = valueAt(answer, path)
    const texts =
      w.kind === 'code'
        ? [(value as { code?: unknown } | null | undefined)?.code]
        : Array.isArray(value)
          ? value
          : [value]
    for (const t of texts) if (typeof t === 'string' && t.trim()) out.push({ label: labels.join(' · '), text: t })
  })
  return out
}
