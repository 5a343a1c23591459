import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import type { ApiContext, SessionState } from '../../../src/main/api/context'
import { ensureAnnotator } from '../../../src/main/store/annotators'
import { Project } from '../../../src/main/store/project'
import { DEFAULT_DISPLAY_SETTINGS } from '../../../src/shared/contract/settings-operations'
import { contextFor } from '../../support/project'
import { tempDir } from '../../support/tmp'

// Display settings are kept in the project file, one set per annotator and one for curators.

const tmp = tempDir()
const path = tmp.file('p.assay')
let project: Project

function sessionOf(name: string | null): SessionState {
  if (name === null) return { role: 'curator', annotator: null, locked: false }
  const a = ensureAnnotator(project, name)
  return { role: 'annotator', annotator: { id: a.id, name: a.name }, locked: true }
}

async function call(ctx: ApiContext, op: string, input: unknown): Promise<any> {
  const env = await dispatch(ctx, op, input)
  if (!env.ok) throw Object.assign(new Error(env.error.message), env.error)
  return env.value
}

beforeAll(async () => {
  project = await Project.create(path)
})
afterAll(() => {
  project.close()
  tmp.cleanup()
})

describe('display settings', () => {
  it('start from the defaults', async () => {
    expect(await call(contextFor(project, sessionOf('Ada')), 'settings.get', {})).toEqual(DEFAULT_DISPLAY_SETTINGS)
  })

  it("are each person's own and survive closing the project", async () => {
    expect(await call(contextFor(project, sessionOf('Ada')), 'settings.set', { theme: 'dark', textSize: 'large' })).toEqual({ theme: 'dark', textSize: 'large', density: 'comfortable' })
    await call(contextFor(project, sessionOf('Ben')), 'settings.set', { density: 'compact' })
    await call(contextFor(project, sessionOf(null)), 'settings.set', { textSize: 'small' })
    project.close()
    project = await Project.open(path)
    expect(await call(contextFor(project, sessionOf('Ada')), 'settings.get', {})).toEqual({ theme: 'dark', textSize: 'large', density: 'comfortable' })
    expect(await call(contextFor(project, sessionOf('Ben')), 'settings.get', {})).toEqual({ ...DEFAULT_DISPLAY_SETTINGS, density: 'compact' })
    expect(await call(contextFor(project, sessionOf(null)), 'settings.get', {})).toEqual({ ...DEFAULT_DISPLAY_SETTINGS, textSize: 'small' })
  })

  it('follow the annotator, not the name: a renamed annotator keeps them', async () => {
    const ada = sessionOf('Ada')
    project.db.prepare(`UPDATE annotators SET name = 'Dr. Ada' WHERE id = ?`).run(ada.annotator!.id)
    const renamed: SessionState = { ...ada, annotator: { id: ada.annotator!.id, name: 'Dr. Ada' } }
    expect((await call(contextFor(project, renamed), 'settings.get', {})).theme).toBe('dark')
  })

  it('refuse values outside the choices, naming the field', async () => {
    await expect(call(contextFor(project, sessionOf('Ada')), 'settings.set', { theme: 'neon' })).rejects.toMatchObject({
      code: 'invalid_input',
      details: [expect.objectContaining({ field: 'theme' })]
    })
  })
})
