import { memo } from 'react'
import type { Widget } from '../../../../shared/instruments/types'
import { FieldsView, humanize } from '../../components/FieldsView'
import { isPairView, isProbeView, keysShownByForm } from '../../../../shared/markdown/view-texts'
import { PairView } from './PairView'
import { ProbeView } from './ProbeView'

// What the annotator reads: only the blinded view main sent. A pair of proposals is shown side by side, section
// by section, as is a probe beside its original; any other view is shown field by field.

export const SourceView = memo(function SourceView({ view, widgets, live = true }: { view: Record<string, unknown>; widgets: ReadonlyArray<Widget>; live?: boolean }) {
  if (isPairView(view)) {
    const a = (view.a as { markdown: string }).markdown
    const b = (view.b as { markdown: string }).markdown
    return <PairView topic={typeof view.topic === 'string' ? view.topic : null} a={a} b={b} />
  }
  if (isProbeView(view)) {
    return <ProbeView intended={typeof view.intended_flaw === 'string' ? view.intended_flaw : null} original={view.original as string} probe={view.probe as string} live={live} />
  }
  const skip = keysShownByForm(widgets)
  return (
    <div className="view-fields" data-testid="source">
      {Object.entries(view)
        .filter(([k, v]) => !skip.has(k) && v !== null && v !== undefined && v !== '')
        .map(([k, v]) => (
          <section key={k} className="view-field" data-source={k}>
            <h3>{humanize(k)}</h3>
            <FieldsView value={v} path={k} />
          </section>
        ))}
    </div>
  )
})

