// Compiles the command line to out/cli (ESM, split by dynamic import) so `assay` starts without transpiling
// TypeScript. Each command's heavy modules sit behind `await import()`, so they become their own chunks and load
// only when that command runs. Dependencies stay in node_modules (better-sqlite3 is native anyway).
import { rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const outdir = join(root, 'out', 'cli')

let esbuild
try {
  esbuild = await import('esbuild')
} catch {
  // Without esbuild (a production-only install) bin/assay.mjs runs the TypeScript sources instead.
  console.warn('assay: esbuild is not installed; the command line will run from its TypeScript sources')
  process.exit(0)
}

const started = Date.now()
rmSync(outdir, { recursive: true, force: true })
const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: { main: 'src/main/cli/main.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Bundling the small pure-JS dependencies saves resolving and reading hundreds of files at each start;
  // the native driver and the model SDKs (loaded only by `judge`) stay in node_modules.
  external: ['better-sqlite3', 'openai', '@anthropic-ai/sdk', '@google/genai'],
  // Bundled CommonJS dependencies call require() for Node built-ins.
  banner: { js: "import { createRequire as __assayCreateRequire } from 'node:module'; const require = __assayCreateRequire(import.meta.url);" },
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning'
})
// The module graph, so tests can check what loads at start (see test/unit/cli/startup-graph.test.ts).
writeFileSync(join(outdir, 'meta.json'), JSON.stringify(result.metafile))
if (!process.argv.includes('--quiet')) console.log(`assay: command line built in out/cli (${Date.now() - started} ms)`)
