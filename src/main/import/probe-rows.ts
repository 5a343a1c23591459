import type { Db, WritableDB } from '../store/database'
import { getItemByExternalId } from '../store/items'
import { sideOf, textDiff } from '../../shared/probes/diff'
import { isRecord } from './read-records'
import { getProbeKind } from '../store/probe-kinds'
import { probeProvenanceSchema, type ProbeProvenance } from '../../shared/probes/provenance'
import type { Problems } from './fields'
import type { ItemDraft } from './types'
import { insertProbe } from '../store/probes'

// Probes travel in the pairs format as ordinary pairs with their provenance under `probe_of`, as `assay export`
// writes them. On import the provenance is validated (schema, its original present in the project or the file, its
// diff rebuilding both sides exactly) and recorded in the probes table with the items, in the same transaction.

/** Checks a pair row's `probe_of`; reports problems by line and field, returns whether the row may be imported. */
export function checkProbeRow(db: Db, payload: Record<string, unknown>, line: number, problems: Problems, pairIdsInFile: ReadonlySet<string>): boolean {
  if (payload.probe_of === undefined || payload.probe_of === null) return true
  if (!completeHandMade(db, payload, line, problems)) return false
  const parsed = probeProvenanceSchema.safeParse(payload.probe_of)
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.error(line, ['probe_of', ...issue.path.map(String)].join('.'), issue.message)
    return false
  }
  const p = parsed.data
  if (!pairIdsInFile.has(p.original.item) && !getItemByExternalId(db, 'proposal-pair', p.original.item)) {
    problems.error(line, 'probe_of.original.item', `the original pair "${p.original.item}" is neither in the project nor in this file`)
    return false
  }
  const side = (s: 'a' | 'b') => String((payload[s] as { markdown?: unknown } | undefined)?.markdown ?? '')
  const probeSide = p.probe_side
  const originalSide = probeSide === 'a' ? 'b' : 'a'
  if (sideOf(p.diff, 'original') !== side(originalSide)) {
    problems.error(line, 'probe_of.diff', `the diff does not rebuild the original (side ${originalSide}) exactly`)
    return false
  }
  if (sideOf(p.diff, 'probe') !== side(probeSide)) {
    problems.error(line, 'probe_of.diff', `the diff does not rebuild the probe (side ${probeSide}) exactly`)
    return false
  }
  return true
}

/**
 * A probe written by hand names its original, side, kind and probe side; what follows from those is filled in here
 * (family, the kind's version and expectations, the diff), so a curator's file need not compute a diff.
 */
function completeHandMade(db: Db, payload: Record<string, unknown>, line: number, problems: Problems): boolean {
  const p = payload.probe_of
  if (!isRecord(p)) return true
  const original = isRecord(p.original) ? p.original : null
  const side = original?.side
  const probeSide = p.probe_side
  if (typeof p.kind !== 'string' || (side !== 'a' && side !== 'b') || (probeSide !== 'a' && probeSide !== 'b')) return true
  let kind
  try {
    kind = getProbeKind(db, p.kind)
  } catch (e) {
    problems.error(line, 'probe_of.kind', e instanceof Error ? e.message : String(e))
    return false
  }
  const text = (s: 'a' | 'b') => String((payload[s] as { markdown?: unknown } | undefined)?.markdown ?? '')
  const filled: Record<string, unknown> = { ...p }
  if (filled.family === undefined && typeof original?.item === 'string') filled.family = `${original.item}:${side}`
  filled.kind_version ??= kind.version
  filled.kind_title ??= kind.title
  filled.kind_instruction ??= kind.instruction
  filled.made_by ??= { method: 'hand' }
  filled.expected ??= { pairwise: kind.pairwise, flaw: kind.flaw ? { ...kind.flaw, evidence: null } : null }
  filled.diff ??= textDiff(text(probeSide === 'a' ? 'b' : 'a'), text(probeSide))
  payload.probe_of = filled
  return true
}

/** Records the probes among imported items (every item is inserted already, so originals in the same file resolve). */
export function recordImportedProbes(db: WritableDB, items: ReadonlyArray<ItemDraft>, ids: ReadonlyArray<number>): number {
  let n = 0
  items.forEach((item, i) => {
    if (item.kind !== 'proposal-pair' || item.payload.probe_of === undefined || item.payload.probe_of === null) return
    const provenance: ProbeProvenance = probeProvenanceSchema.parse(item.payload.probe_of)
    const original = getItemByExternalId(db, 'proposal-pair', provenance.original.item)
    // Checked before writing; a missing original here means the file changed under the import.
    if (!original) throw new Error(`line ${item.line}: the original pair "${provenance.original.item}" is missing`)
    insertProbe(db, { itemId: ids[i]!, originalItemId: original.id, provenance, localRun: false })
    n++
  })
  return n
}
