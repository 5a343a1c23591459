import { AssayError } from '../../../shared/errors'
import type { HandlerGroup } from './types'
import { ensureAnnotator } from '../../store/annotators'
import type { SessionState } from '../context'

function view(s: SessionState) {
  return { role: s.role, annotator: s.annotator, locked: s.locked }
}

export const sessionHandlers: HandlerGroup<'session.get' | 'session.setRole'> = {
  'session.get': (_input, ctx) => view(ctx.session),
  'session.setRole': (input, ctx) => {
    if (ctx.session.locked && input.role === 'curator') {
      throw new AssayError('forbidden', 'This session is for annotation only; curator mode is not available here')
    }
    if (input.role === 'annotator') {
      const name = input.annotator ?? ctx.session.annotator?.name
      if (!name) throw new AssayError('invalid_input', 'Say who is annotating', [{ field: 'annotator', message: 'required for annotator mode' }])
      if (ctx.session.locked && ctx.session.annotator && ctx.session.annotator.name !== name) {
        throw new AssayError('forbidden', `This session belongs to ${ctx.session.annotator.name}`)
      }
      const a = ensureAnnotator(ctx.project, name)
      ctx.session.role = 'annotator'
      ctx.session.annotator = { id: a.id, name: a.name }
    } else {
      ctx.session.role = 'curator'
      ctx.session.annotator = null
    }
    return view(ctx.session)
  }
}
