import type { ProjectView } from '../../../shared/contract/schemas'
import type { HandlerGroup } from './types'

export const projectHandlers: HandlerGroup<'project.info'> = {
  'project.info': (_input, ctx) => {
    const info = ctx.project.info()
    if (ctx.session.role === 'curator') return info
    // Annotators get what names the project and nothing more: no file path, no seed, no counts of other people's
    // work, and no item breakdown by set (set names can carry origins: "ai-generated").
    const view: ProjectView = { name: info.name, projectId: info.projectId, schemaVersion: info.schemaVersion, mode: info.mode, items: info.items, counts: [] }
    return view
  }
}
