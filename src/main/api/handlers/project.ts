import type { HandlerGroup } from './types'

export const projectHandlers: HandlerGroup<'project.info'> = {
  'project.info': (_input, ctx) => {
    const info = ctx.project.info()
    // Annotators see no item breakdown by set: set names can carry origins ("ai-generated").
    return ctx.session.role === 'curator' ? info : { ...info, counts: [] }
  }
}
