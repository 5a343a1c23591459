import type { Reporter, TestModule } from 'vitest/node'

// Prints one plain closing line ("tests: N passed, N failed, N skipped") that any CI log reader understands.
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0
    let failed = 0
    let skipped = 0
    const skippedNames: string[] = []
    for (const mod of modules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') passed++
        else if (state === 'failed') failed++
        else {
          skipped++
          skippedNames.push(test.fullName)
        }
      }
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed++
    }
    // Skips say why in their names (e.g. "desktop app (skipped: no Electron binary)"); list them so CI logs show it.
    for (const name of skippedNames) process.stdout.write(`skipped: ${name}\n`)
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`)
  }
}
