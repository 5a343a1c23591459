// Vite plugins of the renderer build: its chunk graph for tests and benchmarks, and precompressed assets for
// browser mode (src/main/web/static.ts serves the .br and .gz files written here).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib'
import type { Plugin } from 'vite'

/**
 * Writes out/renderer-chunks.json (beside the served folder, not in it): each chunk's file, the chunks it imports
 * statically and dynamically, its CSS, and its source modules with their rendered size.
 */
export function rendererChunkGraph(root: string): Plugin {
  let outDir = ''
  return {
    name: 'assay-renderer-chunk-graph',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir
    },
    generateBundle(_options, bundle) {
      const chunks: Record<string, unknown> = {}
      for (const item of Object.values(bundle)) {
        if (item.type !== 'chunk') continue
        chunks[item.fileName] = {
          name: item.name,
          entry: item.isEntry,
          dynamicEntry: item.isDynamicEntry,
          imports: item.imports,
          dynamicImports: item.dynamicImports,
          css: [...(item.viteMetadata?.importedCss ?? [])],
          modules: Object.fromEntries(
            Object.entries(item.modules).map(([id, m]) => [relative(root, id.replace(/\?.*$/, '').replace(/^\0/, '')).split(sep).join('/'), m.renderedLength])
          )
        }
      }
      const file = join(dirname(outDir), 'renderer-chunks.json')
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, JSON.stringify({ chunks }, null, 1))
    }
  }
}

const COMPRESSIBLE = /\.(js|css|html|svg|json|ttf)$/

/** Writes `<file>.br` (brotli, best) and `<file>.gz` beside every compressible file of the build over 1 KB. */
export function precompress(): Plugin {
  let outDir = ''
  return {
    name: 'assay-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir
    },
    writeBundle() {
      const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue
        const raw = readFileSync(file)
        if (raw.length < 1024) continue
        writeFileSync(`${file}.br`, brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length } }))
        writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }))
      }
    }
  }
}
