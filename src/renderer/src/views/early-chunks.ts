import { lazy, type ComponentType } from 'react'

// Chunks every window needs at once, fetched beside the session rather than after it (see main.tsx).

let annotate: typeof import('../annotate/AnnotateScreen') | undefined
let displaySettings: typeof import('../components/DisplaySettings') | undefined

/** The annotation screen: annotators land on it. */
export const loadAnnotate = () => import('../annotate/AnnotateScreen').then((m) => (annotate = m))

/** The display settings of the top bar (a popover), which also apply the person's theme and text size. */
export const loadDisplaySettings = () => import('../components/DisplaySettings').then((m) => (displaySettings = m))

export const LazyAnnotateScreen = lazyChunk(
  () => annotate,
  loadAnnotate,
  (m) => m.AnnotateScreen
)

export const LazyDisplaySettingsButton = lazyChunk(
  () => displaySettings,
  loadDisplaySettings,
  (m) => m.DisplaySettingsButton
)

/**
 * A component of a chunk, for React.lazy: once the chunk has arrived it renders in the same pass, where a plain
 * lazy component would suspend once (and React holds back the reveal of a suspended screen by up to 300 ms).
 */
function lazyChunk<M, P extends object>(arrived: () => M | undefined, load: () => Promise<M>, pick: (m: M) => ComponentType<P>) {
  return lazy(() => {
    const m = arrived()
    return m ? fulfilled({ default: pick(m) }) : load().then((mod) => ({ default: pick(mod) }))
  })
}

/** A thenable that is already fulfilled, as React reads one: it calls `then` and finds the value at once. */
function fulfilled<T>(value: T): Promise<T> {
  const thenable = {
    status: 'fulfilled',
    value,
    then(ok?: (v: T) => unknown) {
      ok?.(value)
    }
  }
  return thenable as unknown as Promise<T>
}
