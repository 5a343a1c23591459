#!/usr/bin/env node
// Runs the compiled command line (out/cli, made by `npm run build` and by `npm ci`'s prepare step). Without a build
// it runs the TypeScript sources through tsx, which works in any checkout but takes seconds to start.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const built = fileURLToPath(new URL('../out/cli/main.mjs', import.meta.url))
if (existsSync(built)) {
  await import(new URL('../out/cli/main.mjs', import.meta.url).href)
} else {
  process.stderr.write('assay: no compiled command line in out/cli; running the TypeScript sources (slower). `npm run build` makes it.\n')
  const { register } = await import('tsx/esm/api')
  register()
  await import('../src/main/cli/main.ts')
}
