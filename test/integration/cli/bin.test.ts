import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { spawnCli } from '../../support/cli'
import { repoRoot, tempDir } from '../../support/tmp'

const tmp = tempDir()
afterAll(() => tmp.cleanup())

describe('bin/assay.mjs', () => {
  it('runs the compiled command line when it is built, silently', () => {
    const r = spawnCli(['--help'])
    expect(r.code).toBe(0)
    expect(r.stderr).toBe('')
    expect(r.stdout).toMatch(/Usage: assay/)
  })

  it('falls back to the TypeScript sources when there is no build, and says so on stderr', () => {
    // A checkout without out/: the same bin, sources and packages, nothing built.
    const root = join(tmp.dir, 'checkout')
    mkdirSync(join(root, 'bin'), { recursive: true })
    copyFileSync(join(repoRoot, 'bin', 'assay.mjs'), join(root, 'bin', 'assay.mjs'))
    symlinkSync(join(repoRoot, 'src'), join(root, 'src'), 'dir')
    symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'), 'dir')
    const r = spawnSync(process.execPath, [join(root, 'bin', 'assay.mjs'), 'info', '--help'], { encoding: 'utf8', timeout: 120_000 })
    expect(r.status).toBe(0)
    expect(r.stderr).toMatch(/no compiled command line in out\/cli; running the TypeScript sources/)
    expect(r.stdout).toMatch(/Usage: assay info/)
  }, 120_000)
})
