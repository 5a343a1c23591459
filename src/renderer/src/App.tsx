import { lazy, Suspense, useEffect } from 'react'
import { ScreenBoundary } from './views/ScreenBoundary'
import { useWorkbench, type Screen } from './workbench-state'
import { api } from './api'
import { dropFirstAnswers } from './first-page'
import { Overview } from './views/Overview'
import { LazyAnnotateScreen as AnnotateScreen, LazyDisplaySettingsButton as DisplaySettingsButton } from './views/early-chunks'

// Each screen is its own chunk, loaded when first shown: opening the annotation screen never loads the report's
// statistics and plots, the importers' parsers, the run inspector or the item browser.
const ItemBrowser = lazy(() => import('./views/ItemBrowser').then((m) => ({ default: m.ItemBrowser })))
const ImportScreen = lazy(() => import('./import/ImportScreen').then((m) => ({ default: m.ImportScreen })))
const AdjudicationScreen = lazy(() => import('./adjudicate').then((m) => ({ default: m.AdjudicationScreen })))
const RunsScreen = lazy(() => import('./runs/RunsScreen').then((m) => ({ default: m.RunsScreen })))
const InstrumentsScreen = lazy(() => import('./instruments/InstrumentsScreen').then((m) => ({ default: m.InstrumentsScreen })))
const ReportScreen = lazy(() => import('./report').then((m) => ({ default: m.ReportScreen })))

/** `short`: what the tab shows where the window is narrow (about 1024 px), its name staying the full label. */
const SCREENS: ReadonlyArray<{ id: Screen; label: string; short?: string }> = [
  { id: 'overview', label: 'Overview' },
  { id: 'items', label: 'Items' },
  { id: 'instruments', label: 'Instruments' },
  { id: 'annotate', label: 'Annotate' },
  { id: 'import', label: 'Import' },
  { id: 'runs', label: 'Judges & runs', short: 'Judges' },
  { id: 'report', label: 'Audit report', short: 'Report' },
  { id: 'adjudicate', label: 'Adjudicate & packets', short: 'Adjudicate' }
]

/** The curator screens, by id; annotator sessions only ever get the annotation screen. */
function CuratorScreen({ screen, info }: { screen: Screen; info: NonNullable<ReturnType<typeof useWorkbench.getState>['info']> }) {
  switch (screen) {
    case 'overview':
      return <Overview info={info} />
    case 'items':
      return <ItemBrowser />
    case 'instruments':
      return <InstrumentsScreen />
    case 'annotate':
      return <AnnotateScreen />
    case 'import':
      return <ImportScreen />
    case 'adjudicate':
      return <AdjudicationScreen />
    case 'runs':
      return <RunsScreen />
    case 'report':
      return <ReportScreen />
  }
}

export function App() {
  const { info, session, screen, error, load, setScreen, setError } = useWorkbench()
  // While annotating only the annotation screens exist: curator screens would show what annotation must not see.
  const annotating = session?.role === 'annotator'

  useEffect(() => {
    // The first load was done before the first render (main.tsx), with the annotation screen beside it.
    // Counts on the overview follow changes, coalesced: a stream of submissions must not become a stream of reloads.
    let timer: ReturnType<typeof setTimeout> | undefined
    const off = api.on('project.changed', () => {
      dropFirstAnswers()
      clearTimeout(timer)
      timer = setTimeout(() => void load(), 1000)
    })
    return () => {
      clearTimeout(timer)
      off()
    }
  }, [load])

  if (!info || !session) {
    return <div className="splash">{error ? <p role="alert">{error}</p> : <p>Opening project…</p>}</div>
  }

  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">Assay</span>
        <span className="project-name" title={info.path}>
          {info.name}
        </span>
        <nav className="tabs" aria-label="Screens">
          {(annotating ? [] : SCREENS).map((s) => (
            <button
              key={s.id}
              className={screen === s.id ? 'tab active' : 'tab'}
              aria-current={screen === s.id ? 'page' : undefined}
              aria-label={s.short ? s.label : undefined}
              onClick={() => setScreen(s.id)}
            >
              {s.short ? (
                <>
                  <span className="tab-full">{s.label}</span>
                  <span className="tab-short">{s.short}</span>
                </>
              ) : (
                s.label
              )}
            </button>
          ))}
        </nav>
        <span className="session" data-testid="session">
          {session.role === 'curator' ? 'Curator' : `Annotating as ${session.annotator?.name ?? '…'}`}
          {annotating && !session.locked && (
            <button className="link" onClick={() => void api['session.setRole']({ role: 'curator' }).then(load, (e: Error) => setError(e.message))}>
              Switch to curator
            </button>
          )}
        </span>
        {/* Its popover's code arrives beside the first screen's; until then the button holds its place. */}
        <Suspense
          fallback={
            <button type="button" className="display-button" disabled>
              Display
            </button>
          }
        >
          <DisplaySettingsButton sessionKey={`${session.role}:${session.annotator?.id ?? ''}`} />
        </Suspense>
      </header>
      {error && (
        <div className="error-banner" role="alert">
          {error} <button onClick={() => setError(null)}>Dismiss</button>
        </div>
      )}
      <main className="content">
        <ScreenBoundary screen={annotating ? 'annotate' : screen}>
          <Suspense fallback={<p className="screen-loading">Loading…</p>}>
            {annotating ? <AnnotateScreen /> : <CuratorScreen screen={screen} info={info} />}
          </Suspense>
        </ScreenBoundary>
      </main>
    </div>
  )
}
