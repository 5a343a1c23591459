import { readDeclaration } from '../../../shared/instruments/declared/read'
import { declarationHash, latestProjectInstruments, projectInstrumentRows } from '../../store/instruments'
import type { HandlerGroup } from './types'

export const instrumentHandlers: HandlerGroup<'instruments.list' | 'instruments.check'> = {
  'instruments.list': (_input, ctx) => ({
    instruments: latestProjectInstruments(ctx.project.db).map((r) => ({
      id: r.instrument_id,
      version: r.version,
      hash: r.content_hash,
      createdAt: r.created_at,
      declaration: JSON.parse(r.declaration) as Record<string, unknown>
    }))
  }),
  'instruments.check': (input, ctx) => {
    const result = readDeclaration(input.text, input.file ?? 'declaration')
    if (!result.ok) return { ok: false, problems: result.problems, declaration: null, adding: null }
    const versions = projectInstrumentRows(ctx.project.db, result.declaration.id)
    const last = versions[versions.length - 1]
    const adding = !last ? 'new' : last.content_hash === declarationHash(result.declaration) ? 'unchanged' : 'new-version'
    return { ok: true, problems: [], declaration: result.declaration as Record<string, unknown>, adding }
  }
}
