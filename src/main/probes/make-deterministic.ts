import type { Project } from '../store/project'
import { insertItems } from '../store/items'
import { getItemByExternalId } from '../store/items'
import { applyFormulaEdit, type FormulaEditOp } from '../../shared/probes/formula-edit'
import { buildProbePair } from '../../shared/probes/pair'
import { AssayError } from '../../shared/errors'
import { getProbeKind } from '../store/probe-kinds'
import { originalSides, type OriginalQuery } from './originals'
import { insertProbe } from '../store/probes'
import type { WritableDB } from '../store/database'

export interface MakeOptions extends OriginalQuery {
  kind: string
  /** At most this many probes (default: one per original proposal). */
  n?: number | undefined
  /** Set the probe pairs go into. */
  toSet: string
  ops?: ReadonlyArray<FormulaEditOp> | undefined
  dryRun?: boolean | undefined
}

export interface MadeProbe {
  pairId: string
  original: string
  side: 'a' | 'b'
  detail: string
}

export interface MakeResult {
  made: MadeProbe[]
  skipped: Array<{ original: string; side: 'a' | 'b'; reason: string }>
}

/** Deterministic probes (formula-error only): one seeded formula edit per original proposal, all in one transaction. */
export function makeDeterministicProbes(project: Project, opts: MakeOptions): MakeResult {
  const kind = getProbeKind(project.db, opts.kind)
  if (kind.name !== 'formula-error') {
    throw new AssayError('invalid_input', `The deterministic mode makes formula-error probes only; use --mode model for "${kind.name}"`)
  }
  const result: MakeResult = { made: [], skipped: [] }
  const write = (db?: WritableDB) => {
    // --n takes the first N usable originals in seeded order; those with the probe already count, so a re-run adds none.
    let taken = 0
    for (const o of originalSides(project.db, opts)) {
      if (opts.n !== undefined && taken >= opts.n) break
      const edited = applyFormulaEdit(o.pair[o.side].markdown, { seed: opts.seed, key: `${o.pair.pair_id}:${o.side}`, ops: opts.ops })
      if (!edited) {
        result.skipped.push({ original: o.pair.pair_id, side: o.side, reason: 'no equation admits an edit' })
        continue
      }
      const built = buildProbePair({
        original: o.pair,
        side: o.side,
        kind,
        probeMarkdown: edited.markdown,
        madeBy: { method: 'deterministic' },
        edit: edited.edit,
        seed: opts.seed
      })
      taken++
      if (getItemByExternalId(project.db, 'proposal-pair', built.pairId)) {
        result.skipped.push({ original: o.pair.pair_id, side: o.side, reason: `probe ${built.pairId} exists already` })
        continue
      }
      const e = edited.edit
      result.made.push({
        pairId: built.pairId,
        original: o.pair.pair_id,
        side: o.side,
        detail: `${e.op} in equation ${e.equation.index + 1}: "${e.from}" → "${e.to}"`
      })
      if (!db) continue
      const [itemId] = insertItems(db, [{ kind: 'proposal-pair', externalId: built.pairId, set: opts.toSet, split: o.split, payload: built.payload }])
      insertProbe(db, { itemId: itemId!, originalItemId: o.itemId, provenance: built.provenance })
    }
  }
  if (opts.dryRun) write()
  else project.write(write)
  return result
}
