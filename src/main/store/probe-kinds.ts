import type { Db, WritableDB } from './database'
import { AssayError } from '../../shared/errors'
import { BUILTIN_PROBE_KINDS, builtinProbeKind, type ProbeKind, type UserProbeKind } from '../../shared/probes/kinds'

interface KindRow {
  name: string
  version: number
  title: string
  instruction: string
  pairwise_rule: 'original_better' | 'no_preference'
  flaw_type: string | null
  flaw_severity: 'minor' | 'major' | 'fatal' | null
}

function fromRow(r: KindRow): ProbeKind {
  return {
    name: r.name,
    version: r.version,
    title: r.title,
    instruction: r.instruction,
    pairwise: r.pairwise_rule,
    flaw: r.flaw_type && r.flaw_severity ? { type: r.flaw_type, severity: r.flaw_severity } : null,
    builtin: false
  }
}

/** The built-in kinds and the latest version of each kind the project defines. */
export function listProbeKinds(db: Db): ProbeKind[] {
  const rows = db
    .prepare(`SELECT * FROM probe_kinds p WHERE version = (SELECT max(version) FROM probe_kinds q WHERE q.name = p.name) ORDER BY name`)
    .all() as KindRow[]
  return [...BUILTIN_PROBE_KINDS, ...rows.map(fromRow)]
}

export function getProbeKind(db: Db, name: string): ProbeKind {
  const builtin = builtinProbeKind(name)
  if (builtin) return builtin
  const row = db.prepare(`SELECT * FROM probe_kinds WHERE name = ? ORDER BY version DESC LIMIT 1`).get(name) as KindRow | undefined
  if (!row) {
    const known = listProbeKinds(db).map((k) => k.name).join(', ')
    throw new AssayError('invalid_input', `Unknown probe kind "${name}" (known: ${known}); define one with \`assay probe kind\``)
  }
  return fromRow(row)
}

/** Adds a user-defined kind, or a new version of it when its rule changed; an unchanged definition adds nothing. */
export function defineProbeKind(db: WritableDB, kind: UserProbeKind): { kind: ProbeKind; added: boolean } {
  if (builtinProbeKind(kind.name)) throw new AssayError('invalid_input', `"${kind.name}" is a built-in probe kind`)
  const latest = db.prepare(`SELECT * FROM probe_kinds WHERE name = ? ORDER BY version DESC LIMIT 1`).get(kind.name) as KindRow | undefined
  const same =
    latest &&
    latest.title === kind.title &&
    latest.instruction === kind.instruction &&
    latest.pairwise_rule === kind.pairwise &&
    latest.flaw_type === (kind.flaw?.type ?? null) &&
    latest.flaw_severity === (kind.flaw?.severity ?? null)
  if (latest && same) return { kind: fromRow(latest), added: false }
  const version = (latest?.version ?? 0) + 1
  db.prepare(
    `INSERT INTO probe_kinds (name, version, title, instruction, pairwise_rule, flaw_type, flaw_severity) VALUES (?, ?, ?, ?, ?, ?, ?)`
  ).run(kind.name, version, kind.title, kind.instruction, kind.pairwise, kind.flaw?.type ?? null, kind.flaw?.severity ?? null)
  return { kind: { ...kind, version, builtin: false }, added: true }
}
