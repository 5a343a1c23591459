import { CANONICAL_PAIR_LABELS } from '../../shared/items/kinds'
import { referenceLabel, referenceLabelField } from '../../shared/items/reference-label'
import type { CardRow, FinalCardRow } from './rows'
import { countCheckProvenance } from '../checks/verify'
import { fieldDistributions, pct } from './card-fields'

/**
 * The dataset card written beside every export. Every number is recomputed from the exported rows (published
 * manifests have stated balances their rows did not have), and every accuracy-like share sits beside its
 * baselines: the majority label and chance.
 */
export interface CardContext {
  what: 'labels' | 'judgements'
  projectName: string
  projectId: string
  file: string
  format: string
  filters: Record<string, string | undefined>
  pseudonymised: boolean
  generatedAt: string
  rows: ReadonlyArray<CardRow>
  /** Final labels written beside the answers (labels exports). */
  finals?: ReadonlyArray<FinalCardRow> | undefined
  /** Exposure kinds recorded before this export, per exported item id. */
  exposures: ReadonlyMap<number, ReadonlySet<string>>
}

const MAX_LISTED = 50

export function buildCard(c: CardContext): string {
  const finals = c.finals ?? []
  const items = distinctItems(c.rows, finals)
  const lines: string[] = []
  lines.push(`# Dataset card: ${c.what} export`, '')
  lines.push(`- Project: ${c.projectName} (${c.projectId})`)
  // In a labels export a row is an answer; final labels are counted apart.
  const rowNoun = c.what === 'labels' ? 'answer' : 'row'
  const finalNote = c.what === 'labels' ? ` and ${plural(finals.length, 'final label')}` : ''
  lines.push(`- File: \`${c.file}\` (${c.format.toUpperCase()}, ${plural(c.rows.length, rowNoun)}${finalNote})`)
  lines.push(`- Exported: ${c.generatedAt}`)
  const filters = Object.entries(c.filters).filter(([, v]) => v !== undefined)
  lines.push(`- Selection: ${filters.length ? filters.map(([k, v]) => `${k} = ${v}`).join(', ') : 'everything'}`)
  if (c.what === 'labels') {
    lines.push(`- Annotators: ${c.pseudonymised ? 'pseudonyms (A01, A02, …)' : 'names as recorded'}`)
    lines.push('- Answers: the current revision of each answer; retracted answers are left out.')
    lines.push('- Final labels (`source_kind: final`): after each item\'s answers to an instrument, the adjudicated or human-majority label.')
    if (c.pseudonymised && finals.some((f) => f.finalFrom === 'adjudication')) {
      lines.push('- Curators: pseudonyms (an annotator\'s own, else C01, C02, …); reasons are exported as the curator wrote them.')
    }
  } else {
    lines.push('- Rows: finished model calls (ok, abstained, unparseable, failed), one run apart from another; pending calls are left out.')
  }
  lines.push('')

  lines.push('## Counts (recomputed from the rows)', '')
  const finalCount = c.what === 'labels' ? `, ${plural(finals.length, 'final label')}` : ''
  lines.push(`${plural(items.size, 'item')}, ${plural(c.rows.length, rowNoun)}${finalCount}.`, '')
  lines.push(...table(['instrument', 'items', 'rows', 'human sources', 'model sources', 'versions'], instrumentCounts(c.rows)))
  lines.push('')
  if (c.what === 'judgements') {
    lines.push('### Completion per run', '')
    lines.push('Accuracy over completed calls and over all calls differ where calls failed; report both.', '')
    lines.push(...table(['run', 'instrument', 'calls', 'ok', 'abstained', 'unparseable', 'failed'], completion(c.rows)))
    lines.push('')
  }

  lines.push('## Split', '')
  lines.push(...table(['split', 'items', 'rows'], splitCounts(c.rows)))
  lines.push('')

  if (c.what === 'labels') {
    lines.push('## Final labels', '')
    lines.push(...finalSection(finals))
    lines.push('')
  }

  lines.push('## Reference labels and baselines', '')
  lines.push(...referenceLabels(items, finals))
  lines.push('')

  const fields = fieldDistributions(c.rows)
  if (fields.length) {
    lines.push('## Answers by field', '')
    lines.push(...fields)
    lines.push('')
  }

  const checks = countCheckProvenance(c.rows.map((r) => r.judgement))
  if (checks.verified + checks.mismatch + checks.unverified + checks.unrecorded > 0) {
    lines.push('## Worked checks', '')
    lines.push('Each flaw\'s check carries `verification`: how its stored `output` came about.', '')
    lines.push(
      ...table(
        ['verification', 'checks', 'meaning'],
        [
          ['verified', String(checks.verified), 're-run in Assay on submit; the output matched'],
          ['mismatch', String(checks.mismatch), "re-run in Assay on submit; Assay's output is stored, the annotator's in `client_output`"],
          ['unverified', String(checks.unverified), "not re-run (limits or time); stored as the annotator's client sent it"],
          ['(none)', String(checks.unrecorded), 'imported, or stored before checks were re-run']
        ]
      )
    )
    lines.push('')
  }

  lines.push('## Exposure', '')
  lines.push(...exposureSection(items, c.exposures))
  lines.push('')
  return lines.join('\n')
}

interface ItemInfo {
  externalId: string
  kind: string
  split: string
  payload: Record<string, unknown>
}

function distinctItems(rows: ReadonlyArray<CardRow>, finals: ReadonlyArray<FinalCardRow>): Map<number, ItemInfo> {
  const items = new Map<number, ItemInfo>()
  for (const r of [...rows, ...finals]) if (!items.has(r.itemId)) items.set(r.itemId, { externalId: r.externalId, kind: r.itemKind, split: r.split, payload: r.payload })
  return items
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

/** Final labels per instrument, by where they come from and how the majority came out. */
function finalSection(finals: ReadonlyArray<FinalCardRow>): string[] {
  if (!finals.length) return ['No item has current human answers or an adjudication, so there are no final labels.']
  const out = [
    'One per item and instrument with current human answers: the curator\'s adjudication where it rests on every current ' +
      'answer, else the majority of the current human answers (pairwise-preference: the side most non-abstaining answers ' +
      'chose, at the strength most of them gave, or the milder "_better" where their strengths split evenly, which every ' +
      'one of them claims at least (the report\'s verdict field leaves such a pair without a human-majority value, and ' +
      'its winner field gives the side); other instruments: the most frequent value of each nominal or ordinal field, ' +
      'per unit, and a pass read from points from the mean points, as the report reads it, when n_agreeing counts the ' +
      'answers whose own pass agrees, which can be fewer than half).',
    ''
  ]
  const by = new Map<string, { items: number; adjudicated: number; decided: number; tie: number; abstained: number; none: number }>()
  for (const f of finals) {
    const e = by.get(f.instrument) ?? { items: 0, adjudicated: 0, decided: 0, tie: 0, abstained: 0, none: 0 }
    e.items++
    if (f.finalFrom === 'adjudication') e.adjudicated++
    else if (f.majority === 'decided') e.decided++
    else if (f.majority === 'tie') e.tie++
    else if (f.majority === 'all_abstained') e.abstained++
    else e.none++
    by.set(f.instrument, e)
  }
  out.push(
    ...table(
      ['instrument', 'items', 'adjudicated', 'majority', 'majority tied', 'all abstained', 'no majority'],
      [...by.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([id, e]) => [id, String(e.items), String(e.adjudicated), String(e.decided), String(e.tie), String(e.abstained), String(e.none)])
    )
  )
  const stale = finals.filter((f) => f.staleAdjudication).length
  if (stale) {
    out.push('', `- ${plural(stale, 'adjudication')} no longer rest${stale === 1 ? 's' : ''} on the current answers (answers came or changed afterwards); ${stale === 1 ? 'its item uses' : 'their items use'} the majority until a curator decides again.`)
  }
  return out
}

type LabelFrom = 'reference' | 'adjudication' | 'majority'

function instrumentCounts(rows: ReadonlyArray<CardRow>): string[][] {
  const by = new Map<string, { items: Set<number>; rows: number; human: Set<string>; model: Set<string>; versions: Set<number> }>()
  for (const r of rows) {
    const e = by.get(r.instrument) ?? { items: new Set(), rows: 0, human: new Set(), model: new Set(), versions: new Set() }
    e.items.add(r.itemId)
    e.rows++
    if (r.sourceKind === 'model') e.model.add(r.source)
    else e.human.add(r.source)
    if (r.instrumentVersion !== null) e.versions.add(r.instrumentVersion)
    by.set(r.instrument, e)
  }
  return [...by.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, e]) => [id, String(e.items.size), String(e.rows), String(e.human.size), String(e.model.size), [...e.versions].sort().join(', ') || '—'])
}

function completion(rows: ReadonlyArray<CardRow>): string[][] {
  const by = new Map<string, Record<string, number>>()
  for (const r of rows) {
    const key = `${r.source}\u0000${r.instrument}`
    const e = by.get(key) ?? { calls: 0, ok: 0, abstained: 0, unparseable: 0, failed: 0 }
    e.calls = (e.calls ?? 0) + 1
    e[r.status] = (e[r.status] ?? 0) + 1
    by.set(key, e)
  }
  return [...by.entries()].map(([key, e]) => {
    const [judge, instrument] = key.split('\u0000')
    return [judge!, instrument!, String(e.calls), String(e.ok ?? 0), String(e.abstained ?? 0), String(e.unparseable ?? 0), String(e.failed ?? 0)]
  })
}

function splitCounts(rows: ReadonlyArray<CardRow>): string[][] {
  const by = new Map<string, { items: Set<number>; rows: number }>()
  for (const r of rows) {
    const e = by.get(r.split) ?? { items: new Set(), rows: 0 }
    e.items.add(r.itemId)
    e.rows++
    by.set(r.split, e)
  }
  return ['dev', 'test', 'none'].filter((s) => by.has(s)).map((s) => [s, String(by.get(s)!.items.size), String(by.get(s)!.rows)])
}

/**
 * Balance of the items' reference labels (see referenceLabel; a pair's canonical and by origin) and the majority-label
 * baselines. A proposal pair without a reference label counts with its final pairwise-preference label, where that
 * names a better side.
 */
function referenceLabels(items: ReadonlyMap<number, ItemInfo>, finals: ReadonlyArray<FinalCardRow>): string[] {
  const finalOf = new Map<number, { label: string; from: LabelFrom }>()
  for (const f of finals) {
    const verdict = f.instrument === 'pairwise-preference' ? f.judgement?.verdict : undefined
    if (typeof verdict === 'string' && (CANONICAL_PAIR_LABELS as ReadonlyArray<string>).includes(verdict)) finalOf.set(f.itemId, { label: verdict, from: f.finalFrom })
  }
  const labelled: Array<{ info: ItemInfo; label: string; from: LabelFrom }> = []
  for (const [id, info] of items) {
    const reference = referenceLabel(info.kind, info.payload)
    if (reference !== null) labelled.push({ info, label: String(reference), from: 'reference' })
    else {
      const f = finalOf.get(id)
      if (f) labelled.push({ info, ...f })
    }
  }
  if (!labelled.length) return [finals.length ? 'The exported items carry no reference label, and no final label names a better proposal.' : 'The exported items carry no reference label.']
  const canonical = new Map<string, Record<LabelFrom, number>>()
  const winner = { a: 0, b: 0 }
  const byOrigin = { human: 0, ai: 0 }
  let originKnown = 0
  const sources = new Map<string, number>()
  const used: Record<LabelFrom, number> = { reference: 0, adjudication: 0, majority: 0 }
  // Yes/no reference labels (a preprint pair's same_study) by field: their own majority-label baseline.
  const yesNo = new Map<string, { true: number; false: number }>()
  const meanings = new Set<string>()
  for (const { info, label, from } of labelled) {
    used[from]++
    const field = from === 'reference' ? referenceLabelField(info.kind) : null
    if (field) meanings.add(field.meaning)
    if (field?.type === 'boolean') {
      const tally = yesNo.get(field.field) ?? { true: 0, false: 0 }
      tally[label === 'true' ? 'true' : 'false']++
      yesNo.set(field.field, tally)
    }
    const counts = canonical.get(label) ?? { reference: 0, adjudication: 0, majority: 0 }
    counts[from]++
    canonical.set(label, counts)
    const side = label.startsWith('a_') ? 'a' : label.startsWith('b_') ? 'b' : null
    if (side) winner[side]++
    if (from === 'reference') {
      const source = typeof info.payload.label_source === 'string' ? info.payload.label_source : 'unspecified'
      sources.set(source, (sources.get(source) ?? 0) + 1)
    }
    const origin = side ? originOf(info.payload, side) : null
    if (origin) {
      byOrigin[origin]++
      originKnown++
    }
  }
  const n = labelled.length
  const withFinals = used.adjudication + used.majority > 0
  const out: string[] = []
  out.push(
    used.reference
      ? `${used.reference} of ${items.size} exported items have a reference label (source: ${[...sources].map(([s, k]) => `${s} ${k}`).join(', ')}).`
      : `None of the ${items.size} exported items has a reference label.`
  )
  if (meanings.size) out.push(`The reference label is ${[...meanings].join('; ')}; \`canonical_label\` carries it on every row of the item.`)
  if (withFinals) {
    out.push(
      `${used.adjudication + used.majority} more use their final pairwise-preference label instead (${used.adjudication} adjudicated, ${used.majority} human majority); the balance and baselines below count these ${n} items: reference labels where they exist, final labels elsewhere.`
    )
  }
  out.push('')
  const head = withFinals ? ['label', 'items', 'share', 'reference', 'adjudicated', 'majority'] : ['label', 'items', 'share']
  out.push(
    ...table(
      head,
      [...canonical.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([l, k]) => {
          const total = k.reference + k.adjudication + k.majority
          const row = [l, String(total), pct(total, n)]
          return withFinals ? [...row, String(k.reference), String(k.adjudication), String(k.majority)] : row
        })
    )
  )
  out.push('')
  const sided = winner.a + winner.b
  if (sided) {
    const major = winner.a >= winner.b ? 'a' : 'b'
    out.push(
      `- Better side: a ${winner.a}, b ${winner.b}. Majority-label baseline (always "${major}"): ${Math.max(winner.a, winner.b)} of ${sided} = ${pct(Math.max(winner.a, winner.b), sided)}; random: 50%.`
    )
  }
  for (const [field, k] of yesNo) {
    const major = k.true >= k.false ? 'true' : 'false'
    const top = Math.max(k.true, k.false)
    out.push(`- \`${field}\`: true ${k.true}, false ${k.false}. Majority-label baseline (always "${major}"): ${top} of ${k.true + k.false} = ${pct(top, k.true + k.false)}; random: 50%.`)
  }
  if (originKnown) {
    const major = byOrigin.human >= byOrigin.ai ? 'human' : 'ai'
    const top = Math.max(byOrigin.human, byOrigin.ai)
    out.push(
      `- Better origin (where both origins are known, ${originKnown} items): human ${byOrigin.human}, ai ${byOrigin.ai}. Majority-label baseline (always "${major} better"): ${top} of ${originKnown} = ${pct(top, originKnown)}; random: 50%.`
    )
  }
  return out
}

function originOf(payload: Record<string, unknown>, side: 'a' | 'b'): 'human' | 'ai' | null {
  const a = (payload.a as Record<string, unknown> | undefined)?.origin
  const b = (payload.b as Record<string, unknown> | undefined)?.origin
  if ((a !== 'human' && a !== 'ai') || (b !== 'human' && b !== 'ai') || a === b) return null
  return side === 'a' ? a : b
}

/** Per instrument and categorical field: how often each category was answered, and the majority share. */
function exposureSection(items: ReadonlyMap<number, ItemInfo>, exposures: ReadonlyMap<number, ReadonlySet<string>>): string[] {
  const exposed = [...items.entries()].filter(([id]) => exposures.has(id))
  if (!exposed.length) return [`None of the ${items.size} exported items had labels or judge outputs seen, or was used to revise a prompt, before this export.`]
  const byKind = new Map<string, number>()
  for (const [id] of exposed) for (const k of exposures.get(id)!) byKind.set(k, (byKind.get(k) ?? 0) + 1)
  const testExposed = exposed.filter(([, i]) => i.split === 'test').length
  const out = [
    `${exposed.length} of ${items.size} exported items were exposed before this export (${[...byKind].map(([k, n]) => `${k.replace(/_/g, ' ')} ${n}`).join(', ')}).`,
    `${testExposed} of them are in the test split: an item whose labels were seen or used to revise a prompt is no longer an unbiased test item.`,
    '',
    ...exposed.slice(0, MAX_LISTED).map(([id, i]) => `- ${i.externalId} (${i.split}): ${[...exposures.get(id)!].join(', ')}`)
  ]
  if (exposed.length > MAX_LISTED) out.push(`- … and ${exposed.length - MAX_LISTED} more`)
  return out
}



function table(head: string[], rows: string[][]): string[] {
  if (!rows.length) return ['(none)']
  return [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`)]
}
