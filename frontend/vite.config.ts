import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

// base './': the desktop build serves this page from wails://wails, so asset
// URLs must be relative.
export default defineConfig({
  base: './',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // three.js (the avatar stage) is one lazy chunk of about 640 kB, loaded only where
    // WebGL works; the main chunk stays small.
    chunkSizeWarningLimit: 700,
  },
})
