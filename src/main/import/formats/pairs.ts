import {
  CANONICAL_PAIR_LABELS,
  ORIGIN_PAIR_LABELS,
  canonicalFromOriginLabel,
  originLabelFromCanonical,
  type CanonicalPairLabel,
  type OriginPairLabel
} from '../../../shared/items/kinds'
import { asObject, Problems, text } from '../fields'
import { isRecord } from '../read-records'
import { readReferencedText } from '../referenced-file'
import { emptyParsed, type ImportContext, type ParsedImport, type SourceRecord } from '../types'
import { checkProbeRow } from '../probe-rows'

/**
 * Proposal pairs (IdeaEval): JSON array, JSONL, or a manifest object `{ "pairs": [...], ... }`. Each side holds its
 * proposal inline (`markdown`) or as a `path` relative to the manifest. `label` is canonical (`a_better`…) or by
 * origin (`human_better`…), which is converted with the sides' origins. Label balances are recounted from the rows;
 * a balance the manifest declares is compared with the count and a mismatch is warned about.
 */
export const PAIR_ARRAY_KEYS = ['pairs', 'items', 'data'] as const

export function parsePairs(ctx: ImportContext, records: SourceRecord[], root: Record<string, unknown> | null): ParsedImport {
  const out = emptyParsed()
  const problems = new Problems(ctx, out)
  const balance = newBalance()
  // Probes name their original pair, which may come later in the same file.
  const pairIds = new Set(records.flatMap((r) => (isRecord(r.value) && typeof r.value.pair_id === 'string' ? [r.value.pair_id] : [])))
  for (const rec of records) {
    const row = asObject(rec, problems)
    if (!row) continue
    const pairId = text(row, 'pair_id')
    if (!pairId) {
      problems.error(rec.line, 'pair_id', 'missing pair_id')
      continue
    }
    const payload: Record<string, unknown> = { ...row, pair_id: pairId }
    let sidesOk = true
    for (const side of ['a', 'b'] as const) {
      const proposal = readProposal(ctx, row[side], side, rec.line, problems)
      if (proposal) payload[side] = proposal
      else sidesOk = false
    }
    if (!sidesOk) continue
    const label = canonicalLabel(row, payload, rec.line, problems)
    if (label === false) continue
    if (!checkProbeRow(ctx.db, payload, rec.line, problems, pairIds)) continue
    if (label) payload.label = label
    countLabel(balance, label ?? null, payload)
    out.items.push({ kind: 'proposal-pair', externalId: pairId, payload, line: rec.line })
  }
  out.summary = { labels: balance }
  compareDeclaredBalance(root, balance, problems)
  return out
}

function readProposal(ctx: ImportContext, raw: unknown, side: 'a' | 'b', line: number, problems: Problems): Record<string, unknown> | null {
  if (!isRecord(raw)) {
    problems.error(line, side, raw === undefined ? `missing proposal ${side}` : `proposal ${side} must be an object with markdown or path`)
    return null
  }
  const proposal: Record<string, unknown> = { ...raw }
  if (typeof raw.markdown === 'string' && raw.markdown.trim()) return proposal
  const path = text(raw, 'path')
  if (!path) {
    problems.error(line, `${side}.markdown`, `proposal ${side} needs markdown inline or a path to a Markdown file`)
    return null
  }
  const read = readReferencedText(ctx, path)
  if ('error' in read) {
    problems.error(line, `${side}.path`, `${path}: ${read.error}`)
    return null
  }
  proposal.markdown = read.text
  if (!String(proposal.markdown).trim()) {
    problems.error(line, `${side}.path`, `${path} is empty`)
    return null
  }
  return proposal
}

/** The canonical label, null when the row has none, false when the row is in error (already reported). */
export function canonicalLabel(
  row: Record<string, unknown>,
  payload: Record<string, unknown>,
  line: number,
  problems: Problems
): CanonicalPairLabel | null | false {
  const raw = row.label
  if (raw === undefined || raw === null || raw === '') return null
  if (typeof raw !== 'string') {
    problems.error(line, 'label', 'label must be a string')
    return false
  }
  const label = raw.trim()
  if ((CANONICAL_PAIR_LABELS as ReadonlyArray<string>).includes(label)) return label as CanonicalPairLabel
  if (!(ORIGIN_PAIR_LABELS as ReadonlyArray<string>).includes(label)) {
    problems.error(line, 'label', `unknown label "${label}"; expected one of ${[...CANONICAL_PAIR_LABELS, ...ORIGIN_PAIR_LABELS].join(', ')}`)
    return false
  }
  const a = payload.a as Record<string, unknown>
  const b = payload.b as Record<string, unknown>
  const aOrigin = a.origin
  const bOrigin = b.origin
  if ((aOrigin !== 'human' && aOrigin !== 'ai') || (bOrigin !== 'human' && bOrigin !== 'ai')) {
    const missing = aOrigin !== 'human' && aOrigin !== 'ai' ? 'a.origin' : 'b.origin'
    problems.error(line, missing, `label "${label}" names an origin, so both sides need origin human or ai`)
    return false
  }
  if (aOrigin === bOrigin) {
    problems.error(line, 'label', `label "${label}" names an origin, but both sides are ${aOrigin}`)
    return false
  }
  // Keep what the file said so an export can write it back.
  payload.origin_label = label
  return canonicalFromOriginLabel(label as OriginPairLabel, aOrigin)
}

interface Balance {
  total: number
  unlabelled: number
  canonical: Record<string, number>
  /** The label by origin, where both origins are known. */
  byOrigin: Record<string, number>
  /** Which origin won, either strength: the balance IdeaEval's manifests report (e.g. 25:15). */
  winners: { human: number; ai: number }
}

function newBalance(): Balance {
  return {
    total: 0,
    unlabelled: 0,
    canonical: Object.fromEntries(CANONICAL_PAIR_LABELS.map((l) => [l, 0])),
    byOrigin: Object.fromEntries(ORIGIN_PAIR_LABELS.map((l) => [l, 0])),
    winners: { human: 0, ai: 0 }
  }
}

function countLabel(balance: Balance, label: CanonicalPairLabel | null, payload: Record<string, unknown>): void {
  balance.total++
  if (!label) {
    balance.unlabelled++
    return
  }
  balance.canonical[label] = (balance.canonical[label] ?? 0) + 1
  const a = payload.a as Record<string, unknown>
  const b = payload.b as Record<string, unknown>
  if ((a.origin === 'human' || a.origin === 'ai') && b.origin !== a.origin && (b.origin === 'human' || b.origin === 'ai')) {
    const byOrigin = originLabelFromCanonical(label, a.origin)
    balance.byOrigin[byOrigin] = (balance.byOrigin[byOrigin] ?? 0) + 1
    balance.winners[byOrigin.startsWith('human') ? 'human' : 'ai']++
  }
}

/**
 * Published manifests have stated balances their rows did not have (57:18 stated, 25:15 counted). Accepts a
 * declared balance under `label_balance`, `label_counts` or `summary.label_balance`, as an object of counts keyed by
 * canonical label, origin label, or winning origin (`human`, `ai`: either strength), and warns on any difference.
 */
function compareDeclaredBalance(root: Record<string, unknown> | null, balance: Balance, problems: Problems): void {
  if (!root) return
  const summary = isRecord(root.summary) ? root.summary : {}
  const declared = [root.label_balance, root.label_counts, summary.label_balance, summary.label_counts].find(isRecord)
  if (!declared) return
  for (const [label, stated] of Object.entries(declared)) {
    if (typeof stated !== 'number') continue
    const counted = countedFor(label, balance)
    if (counted === undefined) {
      problems.warn(undefined, `label_balance.${label}`, `the manifest states ${stated} for an unknown label "${label}"`)
    } else if (counted !== stated) {
      problems.warn(undefined, `label_balance.${label}`, `the manifest states ${stated} "${label}" but the rows have ${counted}; the rows are used`)
    }
  }
}

function countedFor(label: string, balance: Balance): number | undefined {
  if (label in balance.canonical) return balance.canonical[label]
  if (label === 'unlabelled') return balance.unlabelled
  if (label === 'total') return balance.total
  if (label === 'human' || label === 'ai') return balance.winners[label]
  return balance.byOrigin[label]
}
