import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import { Project } from '../../../src/main/store/project'
import { insertItems } from '../../../src/main/store/items'
import { call, contextFor } from '../../support/project'
import { repoRoot, tempDir } from '../../support/tmp'

// Two projects open in one process, as two desktop windows are: each operation sees its own project's declared
// instruments, never the other's, even when both declare the same id differently.

const tmp = tempDir()
afterAll(() => tmp.cleanup())
const STUDY = readFileSync(join(repoRoot, 'test', 'fixtures', 'instruments', 'idea-study.yaml'), 'utf8')

async function projectWith(name: string, declaration?: string): Promise<Project> {
  const project = await Project.create(tmp.file(`${name}.assay`))
  project.write((db) => insertItems(db, [{ kind: 'idea', externalId: `${name}-1`, set: 'ideas', split: 'none', payload: { idea: 'Cool atoms below the recoil limit.' } }]))
  if (declaration) await call(contextFor(project), 'instruments.add', { text: declaration, file: `${name}.yaml` })
  return project
}

describe('declared instruments of two open projects', () => {
  it('stay with their own project', async () => {
    const first = await projectWith('first', STUDY)
    // The second declares the same id with a narrower scale, and is opened after the first.
    expect(STUDY).toContain('max: 10\n    points: { "1": "not novel", "10": "very novel" }')
    const second = await projectWith('second', STUDY.replace('max: 10\n    points: { "1": "not novel", "10": "very novel" }', 'max: 5\n    points: { "1": "not novel", "5": "very novel" }'))
    const third = await projectWith('third')
    try {
      // Each lists the prompt of its own declared instruments only.
      const prompts = async (p: Project) => (await call<{ templates: Array<{ instrument: string }> }>(contextFor(p), 'templates.list', {})).templates.map((t) => t.instrument)
      expect(await prompts(first)).toContain('idea-study')
      expect(await prompts(third)).not.toContain('idea-study')

      // An answer of 8 is in range for the first project's form and out of range for the second's.
      const answer = { novelty: 8, excitement: 5, feasibility: 5, verdict: 'accept', rationale: '' }
      const check = async (p: Project) => {
        const env = await dispatch(contextFor(p), 'instruments.preview', { instrument: 'idea-study', answer })
        return env.ok ? (env.value as { check: { ok: boolean } | null }).check?.ok : env.error.code
      }
      expect(await check(first)).toBe(true)
      expect(await check(second)).toBe(false)
      // The third project declares nothing: the id is unknown there, and known in the first.
      expect(await dispatch(contextFor(first), 'assignments.create', { instrument: 'idea-study', annotators: ['Ada'], overlap: 1 })).toMatchObject({ ok: true })
      const unknown = await dispatch(contextFor(third), 'assignments.create', { instrument: 'idea-study', annotators: ['Ada'], overlap: 1 })
      expect(unknown).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    } finally {
      first.close()
      second.close()
      third.close()
    }
  })
})
