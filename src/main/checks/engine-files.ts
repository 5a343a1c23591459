import { createRequire } from 'node:module'
import type { EngineSpec } from './check-program'

type EngineFiles = Pick<EngineSpec, 'core' | 'variant' | 'loader' | 'wasm'>

let files: EngineFiles | null = null

/**
 * The files of the checks' engine (QuickJS compiled to WebAssembly), resolved from this module's own place at run
 * time: the TypeScript sources, out/cli (esbuild, which leaves the package external so its .wasm file stays beside
 * its loader) and out/main (electron-vite, which externalises dependencies) all reach the same node_modules. The
 * variant is resolved through quickjs-emscripten, the declared dependency, not through hoisting.
 */
export function engineFiles(): EngineFiles {
  if (files) return files
  const here = createRequire(import.meta.url)
  const viaPackage = createRequire(here.resolve('quickjs-emscripten'))
  files = {
    core: viaPackage.resolve('quickjs-emscripten-core'),
    variant: viaPackage.resolve('@jitl/quickjs-wasmfile-release-sync'),
    loader: viaPackage.resolve('@jitl/quickjs-wasmfile-release-sync/emscripten-module'),
    wasm: viaPackage.resolve('@jitl/quickjs-wasmfile-release-sync/wasm')
  }
  return files
}
