import { getInstrument, isInstrumentId } from '../../shared/instruments'
import type { CardRow } from './rows'

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
  /** Exposure kinds recorded before this export, per exported item id. */
  exposures: ReadonlyMap<number, ReadonlySet<string>>
}

const MAX_LISTED = 50

export function buildCard(c: CardContext): string {
  const items = distinctItems(c.rows)
  const lines: string[] = []
  lines.push(`# Dataset card: ${c.what} export`, '')
  lines.push(`- Project: ${c.projectName} (${c.projectId})`)
  lines.push(`- File: \`${c.file}\` (${c.format.toUpperCase()}, ${c.rows.length} row${c.rows.length === 1 ? '' : 's'})`)
  lines.push(`- Exported: ${c.generatedAt}`)
  const filters = Object.entries(c.filters).filter(([, v]) => v !== undefined)
  lines.push(`- Selection: ${filters.length ? filters.map(([k, v]) => `${k} = ${v}`).join(', ') : 'everything'}`)
  if (c.what === 'labels') {
    lines.push(`- Annotators: ${c.pseudonymised ? 'pseudonyms (A01, A02, …)' : 'names as recorded'}`)
    lines.push('- Answers: the current revision of each answer; retracted answers are left out.')
  } else {
    lines.push('- Rows: finished model calls (ok, unparseable, failed); pending calls are left out.')
  }
  lines.push('')

  lines.push('## Counts (recomputed from the rows)', '')
  lines.push(`${items.size} item${items.size === 1 ? '' : 's'}, ${c.rows.length} row${c.rows.length === 1 ? '' : 's'}.`, '')
  lines.push(...table(['instrument', 'items', 'rows', 'human sources', 'model sources', 'versions'], instrumentCounts(c.rows)))
  lines.push('')
  if (c.what === 'judgements') {
    lines.push('### Completion per judge', '')
    lines.push('Accuracy over completed calls and over all calls differ where calls failed; report both.', '')
    lines.push(...table(['judge', 'instrument', 'calls', 'ok', 'unparseable', 'failed'], completion(c.rows)))
    lines.push('')
  }

  lines.push('## Split', '')
  lines.push(...table(['split', 'items', 'rows'], splitCounts(c.rows)))
  lines.push('')

  lines.push('## Reference labels and baselines', '')
  lines.push(...referenceLabels(items))
  lines.push('')

  const fields = fieldDistributions(c.rows)
  if (fields.length) {
    lines.push('## Answers by field', '')
    lines.push(...fields)
    lines.push('')
  }

  lines.push('## Exposure', '')
  lines.push(...exposureSection(items, c.exposures))
  lines.push('')
  return lines.join('\n')
}

interface ItemInfo {
  externalId: string
  split: string
  payload: Record<string, unknown>
}

function distinctItems(rows: ReadonlyArray<CardRow>): Map<number, ItemInfo> {
  const items = new Map<number, ItemInfo>()
  for (const r of rows) if (!items.has(r.itemId)) items.set(r.itemId, { externalId: r.externalId, split: r.split, payload: r.payload })
  return items
}

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
    const e = by.get(key) ?? { calls: 0, ok: 0, unparseable: 0, failed: 0 }
    e.calls = (e.calls ?? 0) + 1
    e[r.status] = (e[r.status] ?? 0) + 1
    by.set(key, e)
  }
  return [...by.entries()].map(([key, e]) => {
    const [judge, instrument] = key.split('\u0000')
    return [judge!, instrument!, String(e.calls), String(e.ok ?? 0), String(e.unparseable ?? 0), String(e.failed ?? 0)]
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

/** Balance of the items' reference labels (canonical and by origin) and the majority-label baseline. */
function referenceLabels(items: ReadonlyMap<number, ItemInfo>): string[] {
  const labelled = [...items.values()].filter((i) => typeof i.payload.label === 'string')
  if (!labelled.length) return ['The exported items carry no reference label.']
  const canonical = new Map<string, number>()
  const winner = { a: 0, b: 0 }
  const byOrigin = { human: 0, ai: 0 }
  let originKnown = 0
  const sources = new Map<string, number>()
  for (const i of labelled) {
    const label = i.payload.label as string
    canonical.set(label, (canonical.get(label) ?? 0) + 1)
    const side = label.startsWith('a_') ? 'a' : label.startsWith('b_') ? 'b' : null
    if (side) winner[side]++
    const source = typeof i.payload.label_source === 'string' ? i.payload.label_source : 'unspecified'
    sources.set(source, (sources.get(source) ?? 0) + 1)
    const origin = side ? originOf(i.payload, side) : null
    if (origin) {
      byOrigin[origin]++
      originKnown++
    }
  }
  const n = labelled.length
  const out: string[] = [`${n} of ${items.size} exported items have a reference label (source: ${[...sources].map(([s, k]) => `${s} ${k}`).join(', ')}).`, '']
  out.push(...table(['label', 'items', 'share'], [...canonical.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([l, k]) => [l, String(k), pct(k, n)])))
  out.push('')
  const sided = winner.a + winner.b
  if (sided) {
    const major = winner.a >= winner.b ? 'a' : 'b'
    out.push(
      `- Better side: a ${winner.a}, b ${winner.b}. Majority-label baseline (always "${major}"): ${Math.max(winner.a, winner.b)} of ${sided} = ${pct(Math.max(winner.a, winner.b), sided)}; random: 50%.`
    )
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
function fieldDistributions(rows: ReadonlyArray<CardRow>): string[] {
  const out: string[] = []
  const byInstrument = new Map<string, CardRow[]>()
  for (const r of rows) {
    if (r.status !== 'ok' || r.judgement === null) continue
    const list = byInstrument.get(r.instrument) ?? []
    list.push(r)
    byInstrument.set(r.instrument, list)
  }
  for (const [id, list] of [...byInstrument.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    if (!isInstrumentId(id)) continue
    const inst = getInstrument(id)
    const counts = new Map<string, Map<string, number>>()
    let unobservable = 0
    for (const r of list) {
      let observations
      try {
        observations = inst.observe(r.judgement, r.payload as never)
      } catch {
        unobservable++
        continue
      }
      for (const o of observations) {
        for (const f of inst.fields) {
          if (!f.categories || !(f.name in o.values)) continue
          const v = o.values[f.name]
          if (v === null || v === undefined) continue
          const byValue = counts.get(f.name) ?? new Map<string, number>()
          byValue.set(String(v), (byValue.get(String(v)) ?? 0) + 1)
          counts.set(f.name, byValue)
        }
      }
    }
    if (!counts.size) continue
    out.push(`### ${id}`, '')
    for (const f of inst.fields) {
      const byValue = counts.get(f.name)
      if (!byValue || !f.categories) continue
      const total = [...byValue.values()].reduce((s, k) => s + k, 0)
      const cells = f.categories.map((cat) => `${String(cat)}: ${byValue.get(String(cat)) ?? 0}`)
      const top = Math.max(...byValue.values())
      out.push(`- ${f.label} (${f.level}, ${total} observations): ${cells.join(', ')}. Majority share ${pct(top, total)}.`)
    }
    if (unobservable) out.push(`- ${unobservable} answer${unobservable === 1 ? '' : 's'} could not be read as observations (missing item context).`)
    out.push('')
  }
  return out
}

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

function pct(k: number, n: number): string {
  if (n === 0) return '—'
  const v = (100 * k) / n
  return `${Number.isInteger(v) ? v : v.toFixed(1)}%`
}

function table(head: string[], rows: string[][]): string[] {
  if (!rows.length) return ['(none)']
  return [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`)]
}
