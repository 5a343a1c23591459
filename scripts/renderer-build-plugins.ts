// Vite plugins of the renderer build: its chunk graph for tests and benchmarks, precompressed assets for browser
// mode (src/main/web/static.ts serves the .br and .gz files written here), the first screen's chunks announced in
// index.html, and KaTeX's fonts as woff2 shown without waiting.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib'
import type { HtmlTagDescriptor, Plugin } from 'vite'

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

/**
 * Adds `<link rel="modulepreload">` to index.html for the chunks the modules matching `wanted` need (their own and
 * every chunk they import statically, the entry aside), so the browser fetches and compiles them while the entry
 * loads instead of after it has run.
 */
export function preloadChunksOf(wanted: RegExp): Plugin {
  return {
    name: 'assay-preload-chunks',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle
        if (!bundle) return
        const closure = (start: Iterable<string>, skip: ReadonlySet<string> = new Set()) => {
          const seen = new Set<string>()
          const visit = (fileName: string) => {
            const chunk = bundle[fileName]
            if (!chunk || chunk.type !== 'chunk' || seen.has(fileName) || skip.has(fileName)) return
            seen.add(fileName)
            chunk.imports.forEach(visit)
          }
          for (const f of start) visit(f)
          return seen
        }
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk')
        // Vite already links the entry and what it imports statically.
        const linked = closure(chunks.filter((c) => c.isEntry).map((c) => c.fileName))
        const files = closure(
          chunks.filter((c) => c.facadeModuleId && wanted.test(c.facadeModuleId)).map((c) => c.fileName),
          linked
        )
        return [...files].map((f): HtmlTagDescriptor => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `./${f}` }, injectTo: 'head' }))
      }
    }
  }
}

/**
 * KaTeX's stylesheet offers each font as woff2, woff and ttf, and lets text in them stay invisible until they arrive.
 * Every browser the workbench supports reads woff2, so only those are kept (the others are then not built at all),
 * and formulas show at once in a fallback face, swapped when the font is in (`font-display: swap`).
 */
export function katexFontsWoff2Swap(): Plugin {
  return {
    name: 'assay-katex-fonts',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]katex[\\/]dist[\\/]katex(\.min)?\.css$/.test(id)) return null
      const out = code.replace(/@font-face\s*{([^}]*)}/g, (_face, body: string) => {
        const woff2 = /url\(([^)]+\.woff2)\)\s*format\(["']?woff2["']?\)/.exec(body)
        if (!woff2) return `@font-face{${body}}`
        const rest = body.replace(/src:[^;]*;?/, '').replace(/font-display:[^;]*;?/, '').replace(/;?\s*$/, '')
        return `@font-face{font-display:swap;${rest ? `${rest};` : ''}src:url(${woff2[1]}) format("woff2")}`
      })
      return { code: out, map: null }
    }
  }
}
