// Compiles the command line to out/cli (ESM, split by dynamic import) so `assay` starts without transpiling
// TypeScript. Each command's heavy modules sit behind `await import()`, so they become their own chunks and load
// only when that command runs. `--if-stale` builds only when a source is newer than the build (tests use it).
import { existsSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const outdir = join(root, 'out', 'cli')
const quiet = process.argv.includes('--quiet')

/** Newest modification time under the folders the command line is built from. */
function newestSource() {
  let newest = Math.max(statSync(fileURLToPath(import.meta.url)).mtimeMs, statSync(join(root, 'package.json')).mtimeMs)
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name)
      if (e.isDirectory()) walk(p)
      else if (/\.(ts|tsx|mts|json)$/.test(e.name)) newest = Math.max(newest, statSync(p).mtimeMs)
    }
  }
  walk(join(root, 'src', 'main'))
  walk(join(root, 'src', 'shared'))
  return newest
}

if (process.argv.includes('--if-stale')) {
  const stamp = join(outdir, 'main.mjs')
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= newestSource()) process.exit(0)
}

let esbuild
try {
  esbuild = await import('esbuild')
} catch {
  // Without esbuild (a production-only install) bin/assay.mjs runs the TypeScript sources instead.
  console.warn('assay: esbuild is not installed; the command line will run from its TypeScript sources')
  process.exit(0)
}

/**
 * zod re-exports every locale (z.locales.*), 60-odd modules that are parsed at each start; Assay's messages are
 * English (zod's default), so only that one is kept.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onLoad({ filter: /zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js"',
      loader: 'js',
      resolveDir: dirname(args.path)
    }))
  }
}

const started = Date.now()
// Built beside the old build and swapped in, so a command already running from out/cli keeps finding its chunks.
const staging = `${outdir}.${process.pid}.tmp`
rmSync(staging, { recursive: true, force: true })
const result = await esbuild.build({
  absWorkingDir: root,
  // The report's worker thread and the served page's parse worker are entries of their own (src/main/report/report-job.ts
  // and src/main/web/parse-job.ts find them beside the chunks).
  entryPoints: { main: 'src/main/cli/main.ts', 'report-worker': 'src/main/report/report-worker.ts', 'parse-worker': 'src/main/web/parse-worker.ts' },
  outdir: staging,
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
  // Less to read and parse at each start; the source map keeps traces readable (node --enable-source-maps).
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
  plugins: [zodEnglishOnly],
  metafile: true,
  logLevel: 'warning'
})
// The module graph, so tests can check what loads at start (test/unit/cli/startup-graph.test.ts).
// Output paths are written as out/cli/…, where they end up.
const stagingName = relative(root, staging).split(sep).join('/')
writeFileSync(join(staging, 'meta.json'), JSON.stringify(result.metafile).replaceAll(stagingName, 'out/cli'))
const old = `${outdir}.${process.pid}.old`
if (existsSync(outdir)) renameSync(outdir, old)
renameSync(staging, outdir)
rmSync(old, { recursive: true, force: true })
if (!quiet) console.log(`assay: command line built in out/cli (${Date.now() - started} ms)`)
