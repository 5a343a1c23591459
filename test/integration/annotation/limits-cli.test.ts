import { afterAll, describe, expect, it } from 'vitest'
import { Project } from '../../../src/main/store/project'
import { readAnswerLimits } from '../../../src/main/annotation/answer-limits'
import { dispatch } from '../../../src/main/api/dispatch'
import { runCli } from '../../support/cli'
import { contextFor } from '../../support/project'
import { tempDir } from '../../support/tmp'

const tmp = tempDir()
afterAll(() => tmp.cleanup())

describe('assay limits', () => {
  it('shows the defaults, changes one cap and keeps the others', async () => {
    const path = tmp.file('l.assay')
    ;(await Project.create(path)).close()
    const shown = await runCli('limits', path, '--json')
    expect(JSON.parse(shown.stdout)).toEqual({ judgement_bytes: 262144, text_chars: 32000, submissions_burst: 30, submissions_per_minute: 120 })
    expect((await runCli('limits', path, '--text-chars', '5000')).code).toBe(0)
    const p = await Project.open(path)
    expect(readAnswerLimits(p.db)).toMatchObject({ text_chars: 5000, judgement_bytes: 262144 })
    p.close()
  })

  it('refuses a value that is not a positive whole number, naming the option', async () => {
    const path = tmp.file('m.assay')
    ;(await Project.create(path)).close()
    const r = await runCli('limits', path, '--burst', '2.5')
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain('--burst must be a positive whole number')
  })

  it('is the contract\'s limits.get and limits.set: validated, curators only, the other caps kept', async () => {
    const path = tmp.file('c.assay')
    const project = await Project.create(path)
    try {
      const curator = contextFor(project)
      expect(await dispatch(curator, 'limits.set', { submissions_burst: 5 })).toMatchObject({ ok: true, value: { submissions_burst: 5, text_chars: 32000 } })
      expect(await dispatch(curator, 'limits.get', {})).toMatchObject({ ok: true, value: { submissions_burst: 5 } })
      expect(await dispatch(curator, 'limits.set', { text_chars: 0 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
      const annotator = contextFor(project, { role: 'annotator', annotator: { id: 1, name: 'ann' }, locked: true })
      expect(await dispatch(annotator, 'limits.set', { submissions_burst: 1000 })).toMatchObject({ ok: false, error: { code: 'forbidden' } })
      expect(readAnswerLimits(project.db).submissions_burst).toBe(5)
    } finally {
      project.close()
    }
  })
})
