import { defineConfig } from 'vitest/config'

// Unit tests: pure logic next to the code, no DOM.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    // A test waits for the state it needs; the timeout only catches one that never gets
    // it. Vitest's 5 s default failed a CPU-bound property test on a 2-core machine whose
    // cores were both busy, so the guard is set for the busiest machine, not the idle one.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
