import { firstScreenReady } from './views/first-requests'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import 'katex/dist/katex.min.css'
import './styles.css'
import { App } from './App'
import { dropTokenFromAddress } from './api'

dropTokenFromAddress()

void firstScreenReady.then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>
  )
)
