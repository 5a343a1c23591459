import { AssayError } from '../../shared/errors'
import { proposalPairSchema } from '../../shared/items/kinds'
import { changedCharacters } from '../../shared/probes/diff'
import { buildProbePair } from '../../shared/probes/pair'
import { getItem, getItemByExternalId, insertItems } from '../store/items'
import type { Project } from '../store/project'
import { getProbeKind } from '../store/probe-kinds'
import { insertProbe, isProbe } from '../store/probes'

export interface HandProbeInput {
  itemId: number
  side: 'a' | 'b'
  kind: string
  markdown: string
  author?: string | undefined
  /** The set the probe pair goes into. */
  toSet?: string
}

/** Saves a probe written by hand beside its original; refuses an unchanged copy, a probe of a probe, and a duplicate. */
export function makeHandProbe(project: Project, input: HandProbeInput): { itemId: number; pairId: string; changed: number } {
  const db = project.db
  const row = getItem(db, input.itemId)
  if (!row || row.kind !== 'proposal-pair') throw new AssayError('not_found', `No proposal pair with id ${input.itemId}`)
  if (isProbe(db, row.id)) {
    throw new AssayError('invalid_input', `${row.external_id} is a probe itself; make probes from originals`, [{ field: 'itemId', message: 'a probe' }])
  }
  const pair = proposalPairSchema.parse(JSON.parse(row.payload))
  if (input.markdown === pair[input.side].markdown) {
    throw new AssayError('invalid_input', 'The probe is identical to the original: change it first', [{ field: 'markdown', message: 'unchanged' }])
  }
  const kind = getProbeKind(db, input.kind)
  const built = buildProbePair({
    original: pair,
    side: input.side,
    kind,
    probeMarkdown: input.markdown,
    madeBy: { method: 'hand', ...(input.author ? { author: input.author } : {}) },
    seed: project.seed
  })
  return project.write((db) => {
    if (getItemByExternalId(db, 'proposal-pair', built.pairId)) {
      throw new AssayError('conflict', `A ${kind.name} probe of ${pair.pair_id} side ${input.side} exists already (${built.pairId})`)
    }
    const [itemId] = insertItems(db, [{ kind: 'proposal-pair', externalId: built.pairId, set: input.toSet ?? 'probes', split: row.split, payload: built.payload }])
    insertProbe(db, { itemId: itemId!, originalItemId: row.id, provenance: built.provenance })
    return { itemId: itemId!, pairId: built.pairId, changed: changedCharacters(built.provenance.diff) }
  })
}
