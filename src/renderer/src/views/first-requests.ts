import { useWorkbench } from '../workbench-state'
import { loadAnnotate, loadDisplaySettings } from './early-chunks'
import { loadMarkdownParser } from '../components/markdown-parser'
import { whenIdle } from '../annotate/after-paint'
import { pageBroughtParsedTexts } from '../first-page'
import { loadDeclaredInstruments } from '../declared-instruments'

// Imported first by main.tsx, so this runs before React and the rest of the shell are even evaluated: the session
// and project, the screen annotators land on and the top bar's settings are on their way while the shell mounts.
// In browser mode the page brings the answers to these calls, so none of them waits for the server.
const loaded = useWorkbench.getState().load()
// The project's own instruments are known before a form or a list of instruments is drawn.
const declared = loadDeclaredInstruments().catch(() => undefined)
const annotate = loadAnnotate().catch(() => undefined)
const displaySettings = loadDisplaySettings().catch(() => undefined)

/**
 * Resolves when the first screen can be drawn whole: the session is known and, for an annotator, the annotation
 * screen's code and the top bar's have arrived, so the first render shows them rather than a splash and then a
 * placeholder. A curator's first screen (the overview) is in the shell itself.
 */
export const firstScreenReady: Promise<void> = loaded.then(async () => {
  await declared
  const { session } = useWorkbench.getState()
  if (session?.role === 'annotator') {
    // An annotator's first item: in browser mode it came parsed, and the parser follows it (see use-queue; fetched
    // earlier, in an idle moment while the page waits for a font, it would delay that item). Otherwise (the desktop
    // app, a queue too long for the page) that item needs the parser, which is fetched beside the screen's code.
    if (!pageBroughtParsedTexts) void loadMarkdownParser()
    await Promise.all([annotate, displaySettings])
  }
  // A curator's screens show texts parsed in the window: the parser's chunk follows once the window is idle, so the
  // first of them does not wait for it.
  else if (session) whenIdle(() => void loadMarkdownParser(), 3000)
})
