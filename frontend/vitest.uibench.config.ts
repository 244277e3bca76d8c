import { defineConfig } from 'vitest/config'

// The browser benchmark (bench/*.uibench.ts): real server binary + Chromium, one at a time.
export default defineConfig({
  test: {
    include: ['bench/**/*.uibench.ts'],
    environment: 'node',
    testTimeout: 1_800_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    maxWorkers: 1,
  },
})
