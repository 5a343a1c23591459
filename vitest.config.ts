import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Spawned `assay` runs the compiled command line: rebuild it when the sources are newer.
    globalSetup: ['./test/support/cli-build.ts'],
    reporters: ['default', './test/support/summary-reporter.ts']
  }
})
