import { useWorkbench } from '../store'
import { loadAnnotate, loadDisplaySettings } from './early-chunks'

// Imported first by main.tsx, so this runs before React and the rest of the shell are even evaluated: the session
// and project, the screen annotators land on and the top bar's settings are on their way while the shell mounts.
void useWorkbench.getState().load()
loadAnnotate().catch(() => undefined)
loadDisplaySettings().catch(() => undefined)
