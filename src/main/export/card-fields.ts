import { getInstrument, isInstrumentId } from '../../shared/instruments'
import type { CardRow } from './rows'

/** Who gave the answers a count is of: people, models (runs and imported), or the final labels made from them. */
const KIND_ORDER = ['human', 'model', 'reference', 'final'] as const

function kindWords(kind: string): string {
  if (kind === 'human') return 'people'
  if (kind === 'model') return 'models'
  if (kind === 'final') return 'final labels'
  return kind
}

/**
 * The dataset card's answers by field: per instrument and categorical field, the count of each value, told apart by
 * who gave it (people, models, final labels), so one population's balance is never read off a pool of several.
 */
export function fieldDistributions(rows: ReadonlyArray<CardRow>): string[] {
  const out: string[] = []
  const byInstrument = new Map<string, CardRow[]>()
  for (const r of rows) {
    // An abstention is an answer (its abstained field says so); failed and unreadable calls have none to count.
    if ((r.status !== 'ok' && r.status !== 'abstained') || r.judgement === null) continue
    const list = byInstrument.get(r.instrument) ?? []
    list.push(r)
    byInstrument.set(r.instrument, list)
  }
  for (const [id, list] of [...byInstrument.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    if (!isInstrumentId(id)) continue
    const inst = getInstrument(id)
    // field → source kind → value → count
    const counts = new Map<string, Map<string, Map<string, number>>>()
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
          const byKind = counts.get(f.name) ?? new Map<string, Map<string, number>>()
          const byValue = byKind.get(r.sourceKind) ?? new Map<string, number>()
          byValue.set(String(v), (byValue.get(String(v)) ?? 0) + 1)
          byKind.set(r.sourceKind, byValue)
          counts.set(f.name, byKind)
        }
      }
    }
    if (!counts.size) continue
    out.push(`### ${id}`, '')
    for (const f of inst.fields) {
      const byKind = counts.get(f.name)
      if (!byKind || !f.categories) continue
      const kinds = [...byKind.keys()].sort((a, b) => rank(a) - rank(b))
      for (const kind of kinds) {
        const byValue = byKind.get(kind) as Map<string, number>
        const total = [...byValue.values()].reduce((s, k) => s + k, 0)
        const cells = f.categories.map((cat) => `${String(cat)}: ${byValue.get(String(cat)) ?? 0}`)
        const top = Math.max(...byValue.values())
        out.push(`- ${f.label} (${f.level}), by ${kindWords(kind)} (${total} observations): ${cells.join(', ')}. Majority share ${pct(top, total)}.`)
      }
    }
    if (unobservable) out.push(`- ${unobservable} answer${unobservable === 1 ? '' : 's'} could not be read as observations (missing item context).`)
    out.push('')
  }
  return out
}

function rank(kind: string): number {
  const i = (KIND_ORDER as readonly string[]).indexOf(kind)
  return i < 0 ? KIND_ORDER.length : i
}

/** A share as the cards write it: "50%", "33.3%", or "—" of nothing. */
export function pct(k: number, n: number): string {
  if (n === 0) return '—'
  const v = (100 * k) / n
  return `${Number.isInteger(v) ? v : v.toFixed(1)}%`
}
