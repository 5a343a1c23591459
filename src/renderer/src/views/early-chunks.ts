// Chunks every window needs at once, fetched beside the session rather than after it (see main.tsx).

/** The annotation screen: annotators land on it. */
export const loadAnnotate = () => import('../annotate/AnnotateScreen')

/** The display settings of the top bar (a popover), which also apply the person's theme and text size. */
export const loadDisplaySettings = () => import('../components/DisplaySettings')
