import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { WispProvider } from './state/WispProvider'
import './styles.css'

const root = document.getElementById('root')
if (root === null) throw new Error('missing #root element')

createRoot(root).render(
  <StrictMode>
    <WispProvider>
      <App />
    </WispProvider>
  </StrictMode>,
)
