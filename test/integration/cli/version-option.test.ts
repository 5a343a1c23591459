import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../../support/cli'
import { repoRoot, tempDir } from '../../support/tmp'

// `--version` is the program's own flag only before a command: after one it is that command's option, as README
// writes `assay instrument show FILE ID --version N`.

const tmp = tempDir()
afterAll(() => tmp.cleanup())

const DECLARATION = join(repoRoot, 'test', 'fixtures', 'instruments', 'idea-study.yaml')

describe('--version', () => {
  it('prints the program version on its own', async () => {
    for (const flag of ['--version', '-V']) {
      const r = await runCli(flag)
      expect(r.code, flag).toBe(0)
      expect(r.stdout.trim(), flag).toBe('0.1.0')
    }
  })

  it('chooses the version of an instrument after `instrument show`, written with a space as README writes it', async () => {
    const path = tmp.file('study.assay')
    expect((await runCli('new', path)).code).toBe(0)
    expect((await runCli('instrument', 'add', path, DECLARATION)).code).toBe(0)
    const v2 = tmp.file('v2.yaml')
    writeFileSync(v2, readFileSync(DECLARATION, 'utf8').replace(/^title: .*$/m, 'title: Research idea review, second wording'))
    expect((await runCli('instrument', 'add', path, v2)).stdout).toContain('version 2')
    const id = /^id: (.*)$/m.exec(readFileSync(DECLARATION, 'utf8'))![1]!.trim()

    const spaced = await runCli('instrument', 'show', path, id, '--version', '1')
    expect(spaced.stderr).toBe('')
    expect(spaced.code).toBe(0)
    expect(spaced.stdout).toMatch(new RegExp(`^${id}@1: .*versions 1, 2`))
    expect(spaced.stdout).not.toContain('second wording')
    const joined = await runCli('instrument', 'show', path, id, '--version=2')
    expect(joined.stdout).toMatch(new RegExp(`^${id}@2: Research idea review, second wording`))
    const missing = await runCli('instrument', 'show', path, id, '--version', '7')
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('has no version 7 (versions: 1, 2)')
  })
})
