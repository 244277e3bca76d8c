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
  },
})
