import { defineConfig } from 'vitest/config'
import { MARKER, runMarker } from './test/support/leftover-processes'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // A page's work under a loaded two-core machine may take seconds; vitest's 1 s default for expect.poll fails a
    // correct screen that is merely slow (a wrong one still fails, after the longer wait).
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    // One fork runs file after file without importing the modules again for each: that import was over a third of
    // the suite's time on two cores (565 s → 337 s). Each file keeps its state to itself (its temporary directories,
    // the servers and browsers it stops); the suite also passes with its files in shuffled order.
    isolate: false,
    // Spawned `assay` runs the compiled command line: rebuild it when the sources are newer. Then the leftover check:
    // the run fails when a process started by a test is still running after the tests.
    globalSetup: ['./test/support/cli-build.ts', './test/support/leftover-processes.ts'],
    env: { [MARKER]: runMarker() },
    reporters: ['default', './test/support/summary-reporter.ts']
  }
})
