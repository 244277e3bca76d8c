import { defineConfig } from 'vitest/config'

// Unit tests: pure logic next to the code, no DOM.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
  },
})
