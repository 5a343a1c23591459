import type { ProbeChange } from '../../../shared/probes/changes'
import { Markdown } from './Markdown'

// The changes of a probe, each with what it removes from the original and adds in the probe rendered (formulas
// whole, see probeChanges): in the probe check and in the probe editor.

/** The changes as a list, each with what it removes and adds rendered (formulas whole); `onShow` scrolls to one. */
export function ProbeChanges({ original, probe, changes, onShow }: { original: string; probe: string; changes: ReadonlyArray<ProbeChange>; onShow?: (c: ProbeChange) => void }) {
  if (changes.length === 0) return <p className="muted" data-testid="probe-changes">No change yet.</p>
  return (
    <section className="probe-changes" data-testid="probe-changes" aria-label="Changes">
      <h3>
        {changes.length} change{changes.length === 1 ? '' : 's'} {onShow && <span className="muted small">highlighted below: removed in the original, added in the probe</span>}
      </h3>
      <ol>
        {changes.map((c, i) => {
          const removed = original.slice(c.original.start, c.original.end)
          const added = probe.slice(c.probe.start, c.probe.end)
          return (
            <li key={i} data-testid="probe-change">
              <div className="change-removed">
                <span className="change-label">Original</span>
                {removed.trim() ? <Markdown text={removed} /> : <span className="muted">(nothing)</span>}
              </div>
              <div className="change-added">
                <span className="change-label">Probe</span>
                {added.trim() ? <Markdown text={added} /> : <span className="muted">(nothing)</span>}
              </div>
              {onShow && (
                <button type="button" tabIndex={-1} className="link" onClick={() => onShow(c)}>
                  Show in the text
                </button>
              )}
            </li>
          )
        })}
      </ol>
    </section>
  )
}
