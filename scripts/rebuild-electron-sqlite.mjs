// Builds better-sqlite3 for Electron's ABI into native/electron/, leaving node_modules' build (Node's ABI)
// untouched, so the desktop app and the Node tests each load a matching binary.
import { cpSync, mkdirSync, rmSync, copyFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { tmpdir } from 'node:os'

const require = createRequire(import.meta.url)
const electronVersion = require('electron/package.json').version
const work = join(tmpdir(), `assay-sqlite-electron-${electronVersion}`)
rmSync(work, { recursive: true, force: true })
cpSync('node_modules/better-sqlite3', work, { recursive: true })
rmSync(join(work, 'build'), { recursive: true, force: true })
const gyp = require.resolve('node-gyp/bin/node-gyp.js')
const r = spawnSync(process.execPath, [gyp, 'rebuild', '--release', `--target=${electronVersion}`, '--runtime=electron', '--dist-url=https://electronjs.org/headers'], {
  cwd: work,
  stdio: 'inherit'
})
if (r.status !== 0) {
  console.error('Building better-sqlite3 for Electron failed (it needs Electron headers from the network).')
  process.exit(r.status ?? 1)
}
mkdirSync('native/electron', { recursive: true })
copyFileSync(join(work, 'build', 'Release', 'better_sqlite3.node'), 'native/electron/better_sqlite3.node')
console.log(`native/electron/better_sqlite3.node built for Electron ${electronVersion}`)
