import { defineConfig } from 'vitest/config'

// Browser end-to-end tests: real server binary + Chromium via playwright-core.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 180_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    maxWorkers: 1,
  },
})
