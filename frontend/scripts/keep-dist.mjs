// Go embeds frontend/dist, which must exist before any UI build; the repo
// tracks only dist/.keep. vite build empties dist, so put the marker back.
import { mkdirSync, writeFileSync } from 'node:fs'

const dist = new URL('../dist/', import.meta.url)
mkdirSync(dist, { recursive: true })
writeFileSync(new URL('.keep', dist), '')
