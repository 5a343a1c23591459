import { useLayoutEffect, useMemo, useRef } from 'react'
import { probeChanges, type ProbeChange } from '../../../../shared/probes/changes'
import { Markdown } from '../../components/Markdown'
import { ProbeChanges } from '../../components/ProbeChanges'
import { rangesFor } from '../source-span'
import { PairView } from './PairView'

// The probe check's text: the probe beside its original, section by section, each change highlighted where it sits
// in the rendered text (removed words in the original, added ones in the probe), and the list of changes rendered
// above them, formulas whole.

const REMOVED = 'assay-probe-removed'
const ADDED = 'assay-probe-added'

export function ProbeView({ intended, original, probe, live }: { intended: string | null; original: string; probe: string; live: boolean }) {
  const root = useRef<HTMLDivElement>(null)
  const changes = useMemo(() => probeChanges(original, probe), [original, probe])
  useProbeHighlights(root, original, probe, changes, live)
  const show = (c: ProbeChange) => {
    const box = root.current
    if (!box) return
    const span = c.probe.end > c.probe.start ? { source: 'probe', ...c.probe, text: probe } : { source: 'original', ...c.original, text: original }
    const first = rangesFor(box, span, span.text)[0]
    const el = first?.startContainer.parentElement
    el?.scrollIntoView({ block: 'center' })
  }
  return (
    <div className="probe-view" ref={root} data-testid="source">
      {intended && (
        <section className="view-field" data-source="intended_flaw">
          <h3>Intended flaw</h3>
          <Markdown text={intended} />
        </section>
      )}
      <ProbeChanges original={original} probe={probe} changes={changes} onShow={show} />
      <PairView topic={null} a={original} b={probe} heads={['Original', 'Probe']} sources={['original', 'probe']} testId="probe-pair" />
    </div>
  )
}

/** The changes highlighted in the rendered texts, for the item on screen only (the highlights are the page's). */
function useProbeHighlights(root: React.RefObject<HTMLDivElement | null>, original: string, probe: string, changes: ReadonlyArray<ProbeChange>, live: boolean) {
  useLayoutEffect(() => {
    const box = root.current
    if (!live || !box || typeof Highlight === 'undefined' || !('highlights' in CSS)) return
    const draw = () => {
      const removed = changes.flatMap((c) => (c.original.end > c.original.start ? rangesFor(box, { source: 'original', ...c.original }, original) : []))
      const added = changes.flatMap((c) => (c.probe.end > c.probe.start ? rangesFor(box, { source: 'probe', ...c.probe }, probe) : []))
      CSS.highlights.set(REMOVED, new Highlight(...removed))
      CSS.highlights.set(ADDED, new Highlight(...added))
    }
    draw()
    // Texts rendered once the parser arrives are highlighted then.
    const watch = new MutationObserver(draw)
    watch.observe(box, { childList: true, subtree: true })
    return () => {
      watch.disconnect()
      CSS.highlights.delete(REMOVED)
      CSS.highlights.delete(ADDED)
    }
  }, [root, original, probe, changes, live])
}
