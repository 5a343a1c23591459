import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { _electron as electron } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { repoRoot, tempDir } from '../support/tmp'
import { spawnCli } from '../support/cli'

// The Electron binary is downloaded on first use (requiring 'electron' would try that download); machines without that
// download cannot run these tests. Where it was installed, node_modules/electron/path.txt names it under dist/.
function electronBinary(): string | null {
  const pkg = join(repoRoot, 'node_modules', 'electron')
  const pathFile = join(pkg, 'path.txt')
  if (!existsSync(pathFile)) return null
  const binary = join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim())
  return existsSync(binary) ? binary : null
}
const binary = electronBinary()
const nativeForElectron = existsSync(join(repoRoot, 'native', 'electron', 'better_sqlite3.node'))
const reason = !binary ? 'no Electron binary' : !nativeForElectron ? 'no Electron build of better-sqlite3 (npm run rebuild:electron)' : ''

describe.skipIf(reason !== '')(`desktop app (skipped: ${reason || 'n/a'})`, () => {
  // Made when the tests run, so a skipped file leaves no folder behind.
  let tmp: ReturnType<typeof tempDir>
  beforeAll(() => {
    tmp = tempDir()
  })
  afterAll(() => tmp.cleanup())

  it('opens a project in a sandboxed window and lists its items', async () => {
    const path = tmp.file('demo.assay')
    expect(spawnCli(['new', path, '--demo']).code).toBe(0)
    const app = await electron.launch({ executablePath: binary!, args: [repoRoot, path], env: { ...process.env, ELECTRON_ENABLE_LOGGING: '1' } })
    try {
      const win = await app.firstWindow()
      await expect.poll(() => win.getByTestId('count-items').textContent(), { timeout: 20_000 }).toBe('28')
      // The renderer has no Node: the bridge exposes only the contract transport.
      expect(await win.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined')
      expect(await win.evaluate(() => Object.keys((globalThis as { assayTransport?: object }).assayTransport ?? {}).sort())).toEqual(['invoke', 'subscribe'])
      expect(await win.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe('undefined')
      // Navigation away from the app is blocked.
      await win.evaluate(() => {
        ;(globalThis as unknown as { location: { href: string } }).location.href = 'https://example.com/'
      })
      await new Promise((r) => setTimeout(r, 500))
      expect(win.url()).toMatch(/^file:/)
    } finally {
      await app.close()
    }
  })
})
