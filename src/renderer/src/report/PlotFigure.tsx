import { useState } from 'react'
import type { ReportPlot } from '../../../shared/report/plots'
import { downloadBlob, downloadText, svgToPng } from './export'

/** One plot, drawn from the shared SVG builder, with SVG and PNG export. */
export function PlotFigure({ plot, fileStem }: { plot: ReportPlot; fileStem: string }) {
  const [error, setError] = useState<string | null>(null)
  const name = `${fileStem}-${plot.id}`
  return (
    <figure className="report-plot" data-plot-id={plot.id} data-kind={plot.kind}>
      {/* The SVG is built by a pure function that escapes every text it writes. */}
      <div className="report-plot-svg" dangerouslySetInnerHTML={{ __html: plot.svg }} />
      <figcaption>
        <span>{plot.title}</span>
        <span className="report-plot-actions">
          <button type="button" onClick={() => downloadText(`${name}.svg`, plot.svg, 'image/svg+xml')} aria-label={`Export ${plot.title} as SVG`}>
            SVG
          </button>
          <button
            type="button"
            aria-label={`Export ${plot.title} as PNG`}
            onClick={() => {
              setError(null)
              svgToPng(plot.svg).then(
                (png) => downloadBlob(`${name}.png`, png),
                (e: Error) => setError(e.message)
              )
            }}
          >
            PNG
          </button>
        </span>
      </figcaption>
      {error && <p role="alert" className="report-error">{error}</p>}
    </figure>
  )
}
