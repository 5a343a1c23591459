import type { Db } from '../store/database'
import { leakAuditAnswers } from '../store/leak-audits'

// The protocol drops a task whose leak audit finds a leak: generation runs leave such tasks out, and each run records
// which it left out and why. A curator's final label decides where there is one; otherwise one audit (a person's,
// an imported one, or a judge run's answer) finding a leak is enough, since a leaked finding makes the task worthless
// whoever noticed it. `keepLeaky` overrides the rule, and the run records that it did.

export interface LeakDecision {
  leak: boolean
  /** The audits that found a leak (or the curator's final label), e.g. `run:3`, `annotator:Dr. Ada`. */
  by: string[]
}

/** The decision for every task with at least one leak audit; tasks never audited are absent. */
export function leakDecisions(db: Db): Map<number, LeakDecision> {
  const out = new Map<number, LeakDecision>()
  const adjudicated = new Set<number>()
  for (const a of leakAuditAnswers(db)) {
    if (a.source === 'adjudicated') {
      adjudicated.add(a.itemId)
      out.set(a.itemId, { leak: a.leak, by: ['adjudicated'] })
      continue
    }
    if (adjudicated.has(a.itemId)) continue
    const d = out.get(a.itemId) ?? { leak: false, by: [] }
    if (a.leak) {
      d.leak = true
      d.by.push(a.source)
    }
    out.set(a.itemId, d)
  }
  return out
}

export function leakReason(d: LeakDecision): string {
  return d.by[0] === 'adjudicated' ? 'leak audit: leak (curator’s final label)' : `leak audit: leak (found by ${d.by.join(', ')})`
}
