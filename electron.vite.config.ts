import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'
import { katexFontsWoff2Swap, precompress, preloadChunksOf, rendererChunkGraph } from './scripts/renderer-build-plugins'

// Main and preload bundle for Electron; the renderer is the same build that browser mode serves.
export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        // The report's worker thread and the desktop's worked-check process are entries of their own, loaded by
        // src/main/report/report-job.ts and src/main/shell/check-launcher.ts.
        input: {
          index: resolve(__dirname, 'src/main/shell/index.ts'),
          'report-worker': resolve(__dirname, 'src/main/report/report-worker.ts'),
          'check-utility': resolve(__dirname, 'src/main/checks/utility-entry.ts')
        },
        external: ['better-sqlite3']
      }
    }
  },
  preload: {
    build: {
      // A sandboxed preload can only require 'electron': everything else it uses is bundled in.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' }
      }
    }
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    build: {
      // electron-vite leaves bundles unminified; the renderer is also served over HTTP in browser mode.
      // ASSAY_NO_MINIFY=1 keeps names readable in CPU profiles.
      minify: !process.env.ASSAY_NO_MINIFY,
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } }
    },
    // The chunks main.tsx asks for at once (src/renderer/src/views/early-chunks.ts) are announced in index.html.
    plugins: [
      react(),
      katexFontsWoff2Swap(),
      preloadChunksOf(/[\\/](annotate[\\/]AnnotateScreen|components[\\/]DisplaySettings)\.tsx$/),
      rendererChunkGraph(__dirname),
      precompress()
    ]
  }
})
