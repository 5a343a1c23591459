import type { instrumentOperations } from '../../../shared/contract/instrument-operations'
import { buildInstrument } from '../../../shared/instruments/declared/build'
import { readDeclaration } from '../../../shared/instruments/declared/read'
import { addDeclaration, checkDeclarationText, declaredVersions } from '../../instruments/declarations'
import { previewInstrument } from '../../instruments/preview'
import { declarationHash, latestProjectInstruments, projectInstrumentRows } from '../../store/instruments'
import type { HandlerGroup } from './types'
import { refuseInPacket } from './packet-guard'

export const instrumentHandlers: HandlerGroup<keyof typeof instrumentOperations> = {
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
    buildInstrument(result.declaration, 1) // proves the schema and form can be made from it, as adding does
    const versions = projectInstrumentRows(ctx.project.db, result.declaration.id)
    const last = versions[versions.length - 1]
    const adding = !last ? 'new' : last.content_hash === declarationHash(result.declaration) ? 'unchanged' : 'new-version'
    return { ok: true, problems: [], declaration: result.declaration as Record<string, unknown>, adding }
  },
  'instruments.add': (input, ctx) => {
    // A packet's instruments are its project's: a declaration is added in the curator project.
    refuseInPacket(ctx, 'declare instruments')
    return addDeclaration(ctx.project, checkDeclarationText(input.text, input.file ?? 'declaration'))
  },
  'instruments.preview': (input, ctx) => previewInstrument(ctx.project, input),
  'instruments.versions': (input, ctx) => ({
    versions: declaredVersions(ctx.project, input.id).map((v) => ({ ...v, declaration: v.declaration as Record<string, unknown> }))
  })
}
