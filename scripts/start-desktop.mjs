// `npm start`: opens the desktop app on the bundled demo project (created on first start).
// Electron downloads its binary on first use; where that is impossible, say so and point to browser mode.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
let electronPath
try {
  electronPath = require('electron')
} catch {
  electronPath = null
}
if (!electronPath || typeof electronPath !== 'string' || !existsSync(electronPath)) {
  console.error('No Electron binary is installed on this machine (it is downloaded on first start, which failed or was skipped).')
  console.error('Use the same workbench in a browser instead:  npm run web')
  process.exit(1)
}
if (!existsSync('native/electron/better_sqlite3.node')) {
  console.error('Building better-sqlite3 for Electron (once)…')
  const r = spawn(process.execPath, ['scripts/rebuild-electron-sqlite.mjs'], { stdio: 'inherit' })
  const code = await new Promise((resolve) => r.on('exit', resolve))
  if (code !== 0) process.exit(code ?? 1)
}
const child = spawn(electronPath, ['.', ...process.argv.slice(2)], { stdio: 'inherit' })
child.on('exit', (code) => process.exit(code ?? 0))
