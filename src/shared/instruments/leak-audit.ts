import { z } from 'zod'
import { quoteFragmentsIn, YES_NO_KEYS, identity } from './common'
import type { Instrument, JudgementIssue, Observation } from './types'

/**
 * Does a rediscovery task leak its hidden finding (hypothesis benchmark, leak audit)? The auditor must see the
 * finding and key points to judge; the subject and the second reference are not part of the question and stay hidden.
 * A task with a leak is dropped from the benchmark.
 */

export const leakAuditJudgement = z.lazy(() => z.object({
  leak: z.boolean(),
  /** The leaking words of the background or question, or empty. */
  evidence: z.string()
}))
export type LeakAuditJudgement = z.infer<typeof leakAuditJudgement>

export const LEAK_QUESTION =
  'Does the background or question state, name or directly imply the finding or any key point (for example by ' +
  'naming the specific molecule, pathway, cell type or intervention of the finding, or by making it the only ' +
  'sensible answer)? Ordinary context that many hypotheses could build on is not leakage.'

export const leakAudit: Instrument<'rediscovery-task', LeakAuditJudgement> = {
  id: 'leak-audit',
  version: 1,
  title: 'Answer leakage in a task',
  description: 'Decide whether the background or question given to proposers gives away the hidden finding.',
  itemKind: 'rediscovery-task',
  judgement: leakAuditJudgement,
  fields: [{ name: 'leak', label: 'Leak', level: 'nominal', categories: [false, true] }],
  form: {
    rubric: LEAK_QUESTION,
    widgets: [
      { kind: 'boolean', field: 'leak', label: 'Leak', ...YES_NO_KEYS },
      {
        kind: 'quote',
        field: 'evidence',
        label: 'The leaking words (from the background or question)',
        source: ['background', 'question'],
        // A leak is shown by its words (check() refuses one without them); no leak has none to quote.
        requiredWhen: { field: 'leak', in: [true], says: 'required when there is a leak' }
      }
    ],
    empty: () => ({ leak: null, evidence: '' })
  },
  templates: ['leak-audit'],
  blind(payload) {
    return {
      view: {
        background: payload.background,
        question: payload.question,
        finding: payload.finding,
        key_points: payload.key_points
      },
      display: {}
    }
  },
  toCanonical: identity,
  toDisplay: identity,
  check(j, payload): JudgementIssue[] {
    const evidence = j.evidence.trim()
    if (!evidence) {
      return j.leak ? [{ path: 'evidence', message: 'A leak needs the leaking words as evidence.' }] : []
    }
    if (!quoteFragmentsIn([payload.background, payload.question], evidence)) {
      return [{ path: 'evidence', message: 'The evidence must be words of the background or the question.' }]
    }
    return []
  },
  observe(j, payload): Observation[] {
    return [{ unit: payload.task_id, values: { leak: j.leak } }]
  }
}
