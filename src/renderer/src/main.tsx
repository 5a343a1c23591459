import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import 'katex/dist/katex.min.css'
import './styles.css'
import { App } from './App'
import { dropTokenFromAddress } from './api'
import { useWorkbench } from './store'
import { loadAnnotate, loadDisplaySettings } from './views/early-chunks'

dropTokenFromAddress()
// Asked before React first renders: the session and project, the screen annotators land on and the top bar's
// settings travel while the shell mounts.
void useWorkbench.getState().load()
loadAnnotate().catch(() => undefined)
loadDisplaySettings().catch(() => undefined)

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>
)
