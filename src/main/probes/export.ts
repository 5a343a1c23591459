import type { Db } from '../store/database'
import { EXTRA_KEY } from '../import/extra-fields'
import { jsonWithWrittenNumbers } from '../import/numbers'
import { writeOutputFile } from '../files/output-file'
import { listProbes, type ProbeQuery } from '../store/probes'
import { itemPayloadFinder } from '../store/items'

// Probes written in the pairs format: each probe pair as the pairs importer reads it, with its provenance under
// `probe_of`, and (unless left out) each original pair before its probes, so the file imports into another project
// by itself and the provenance still names its original.

export interface ProbeExportOptions extends ProbeQuery {
  out: string
  force?: boolean | undefined
  withOriginals?: boolean | undefined
  /** Paths never written (the open project). */
  protect?: ReadonlyArray<string> | undefined
}

function row(payload: Record<string, unknown>): Record<string, unknown> {
  // A file's own fields were kept under $extra; written back at the top, as they came.
  const { [EXTRA_KEY]: extra, ...own } = payload
  return { ...(extra && typeof extra === 'object' ? (extra as Record<string, unknown>) : {}), ...own }
}

export function exportProbes(db: Db, o: ProbeExportOptions): { path: string; probes: number; originals: number } {
  const probes = listProbes(db, o)
  const payloadOf = itemPayloadFinder(db)
  const lines: string[] = []
  const written = new Set<number>()
  let originals = 0
  for (const p of probes) {
    if (o.withOriginals !== false && !written.has(p.originalItemId)) {
      written.add(p.originalItemId)
      originals++
      lines.push(jsonWithWrittenNumbers(row(JSON.parse(payloadOf(p.originalItemId)!) as Record<string, unknown>)))
    }
    lines.push(jsonWithWrittenNumbers(row(JSON.parse(payloadOf(p.itemId)!) as Record<string, unknown>)))
  }
  const path = writeOutputFile(o.out, lines.length ? `${lines.join('\n')}\n` : '', { force: o.force ?? false, protect: o.protect })
  return { path, probes: probes.length, originals }
}
