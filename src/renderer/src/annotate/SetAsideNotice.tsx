import type { WrittenText } from '../../../shared/instruments/written-texts'

/**
 * A draft made for an earlier arrangement of the item (sides or hypothesis order) cannot be put in this form without
 * placing answers on the wrong side; it is kept, and what was written in it is shown to copy from.
 */
export function SetAsideNotice({ at, texts }: { at: string; texts: ReadonlyArray<WrittenText> }) {
  return (
    <div className="status-note" role="status" data-testid="draft-set-aside">
      A draft of this item saved {new Date(at).toLocaleString()} was made for an earlier arrangement of the proposals or
      hypotheses and cannot be put in this form; it is kept aside, not lost.
      {texts.length > 0 && (
        <details className="set-aside-texts">
          <summary>What you wrote in it ({texts.length})</summary>
          <dl>
            {texts.map((t, i) => (
              <div key={i}>
                <dt>{t.label}</dt>
                <dd>{t.text}</dd>
              </div>
            ))}
          </dl>
        </details>
      )}
    </div>
  )
}
