import './styles/tokens.css'
import './styles/base.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { safeLocalStorage } from './api/connection'
import { WispProvider } from './state/WispProvider'
import { applyTheme, storedTheme } from './state/theme'
import './styles/layout.css'
import { warmUpWhenIdle } from './warmup'

// The last theme chosen, until the config says otherwise (state/useTheme.ts).
applyTheme(storedTheme(safeLocalStorage()), document.documentElement)

const root = document.getElementById('root')
if (root === null) throw new Error('missing #root element')

createRoot(root).render(
  <StrictMode>
    <WispProvider>
      <App />
    </WispProvider>
  </StrictMode>,
)

// Compiles what the first reply draws while the page is idle (warmup.ts).
warmUpWhenIdle()
