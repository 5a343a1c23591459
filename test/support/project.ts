import { Project } from '../../src/main/store/project'
import { insertItems, type NewItem } from '../../src/main/store/items'
import { EventHub } from '../../src/main/events'
import { curatorSession, type ApiContext, type SessionState } from '../../src/main/api/context'
import { dispatch } from '../../src/main/api/dispatch'

/** A project with a few items of different kinds, for contract and server tests. */
export async function smallProject(path: string): Promise<Project> {
  const project = await Project.create(path)
  const items: NewItem[] = [
    {
      kind: 'proposal-pair',
      externalId: 'pair-1',
      set: 'pairs',
      split: 'test',
      payload: {
        pair_id: 'pair-1',
        topic: 'allocation',
        a: { markdown: '# Title A\n\n## Introduction\nA text with $x^2$.', origin: 'human', citations: 12 },
        b: { markdown: '# Title B\n\n## Introduction\nB text.', origin: 'ai', generator: 'model-x' },
        label: 'a_better',
        probe: 'formula-error'
      }
    },
    { kind: 'idea', externalId: 'idea-1', set: 'ideas', split: 'dev', payload: { idea: 'Measure enzyme drift with a cheap assay' } },
    { kind: 'idea', externalId: 'idea-2', set: 'ideas', split: 'none', payload: { idea: 'Rank hypotheses by testability' } }
  ]
  project.write((db) => insertItems(db, items))
  return project
}

export function contextFor(project: Project, session: SessionState = curatorSession()): ApiContext & { hub: EventHub } {
  const hub = new EventHub()
  return { project, session, events: hub, hub }
}

/** Calls an operation and returns its value; a refusal throws with the error's code, message and fields on it. */
export async function call<T = any>(ctx: ApiContext, op: string, input: unknown): Promise<T> {
  const env = await dispatch(ctx, op, input)
  if (!env.ok) throw Object.assign(new Error(env.error.message), env.error)
  return env.value as T
}
