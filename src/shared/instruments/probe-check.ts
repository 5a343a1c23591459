import { z } from 'zod'
import type { ProposalPair } from '../items/kinds'
import { compactDiff, type DiffPart } from '../probes/diff'
import { builtinProbeKind, PROBE_SEVERITIES } from '../probes/kinds'
import { probeProvenanceSchema, type ProbeProvenance } from '../probes/provenance'
import { YES_NO_KEYS, identity } from './common'
import { proposalMarkdownForView } from './proposal-view'
import type { Instrument, JudgementIssue, Observation } from './types'

/**
 * Verifying a probe (an original-vs-probe pair): the checker sees the original, the probe and the diff, and the kind
 * of flaw that was meant to be planted, and says whether that flaw is present, whether it is the only substantive
 * change, and how severe it is. Only probes that pass enter probe reports. Unlike judging the pair, this is not blind
 * to which side is the probe: checking the planted change needs to know it.
 */

export const PROBE_CHECK_SEVERITIES = ['none', ...PROBE_SEVERITIES] as const

export const probeCheckJudgement = z.lazy(() => z
  .object({
    flaw_present: z.boolean(),
    only_change: z.boolean(),
    /** The planted flaw's severity; `none` when it is not present. */
    severity: z.enum(PROBE_CHECK_SEVERITIES),
    note: z.string().default('')
  })
  .superRefine((j, ctx) => {
    if (j.flaw_present && j.severity === 'none') {
      ctx.addIssue({ code: 'custom', path: ['severity'], message: 'A flaw that is present has a severity (minor, major or fatal).' })
    }
  }))
export type ProbeCheckJudgement = z.infer<typeof probeCheckJudgement>

export function probeProvenanceOf(payload: ProposalPair): ProbeProvenance | null {
  const parsed = probeProvenanceSchema.safeParse((payload as Record<string, unknown>).probe_of)
  return parsed.success ? parsed.data : null
}

/** A code span that survives any text (a fence longer than any backtick run inside). */
function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length))
  const fence = '`'.repeat(longest + 1)
  return `${fence} ${text.replace(/\n/g, ' ')} ${fence}`
}

/** The changes as a Markdown list: each removed and added run in code spans (LaTeX shown as written), in context. */
export function diffAsMarkdown(diff: readonly DiffPart[]): string {
  const parts = compactDiff(diff, 40)
  const lines: string[] = []
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!
    if (p.op === 'same') continue
    const removed = p.op === 'removed' ? p.text : ''
    const next = parts[i + 1]
    const added = p.op === 'added' ? p.text : next?.op === 'added' ? next.text : ''
    if (p.op === 'removed' && next?.op === 'added') i++
    const before = parts.slice(0, i).reverse().find((x) => x.op === 'same')?.text.slice(-40) ?? ''
    const after = parts.slice(i + 1).find((x) => x.op === 'same')?.text.slice(0, 40) ?? ''
    const what = removed && added ? `**replaced** ${code(removed)} **with** ${code(added)}` : removed ? `**removed** ${code(removed)}` : `**added** ${code(added)}`
    const where = [before.trim() ? `after ${code(`…${before}`)}` : '', after.trim() ? `before ${code(`${after}…`)}` : ''].filter(Boolean).join(', ')
    lines.push(`${lines.length + 1}. ${what}${where ? ` — ${where}` : ''}`)
  }
  return lines.length ? lines.join('\n') : '(no change)'
}

export const probeCheck: Instrument<'proposal-pair', ProbeCheckJudgement> = {
  id: 'probe-check',
  version: 1,
  title: 'Check a probe',
  description:
    'Compare a probe with the original it was derived from: is the intended flaw present, is it the only ' +
    'substantive change, and how severe is it?',
  itemKind: 'proposal-pair',
  accepts: (payload) => probeProvenanceOf(payload) !== null,
  judgement: probeCheckJudgement,
  fields: [
    { name: 'flaw_present', label: 'Intended flaw present', level: 'nominal', categories: [false, true] },
    { name: 'only_change', label: 'Only substantive change', level: 'nominal', categories: [false, true] },
    { name: 'severity', label: 'Severity', level: 'ordinal', categories: PROBE_CHECK_SEVERITIES }
  ],
  form: {
    rubric:
      'The probe should differ from the original by the intended flaw only. Answer **no** to the second question ' +
      'if anything else of substance changed (a result, a method step, a claim beyond the intended one).',
    widgets: [
      { kind: 'boolean', field: 'flaw_present', label: 'Is the intended flaw present in the probe?', ...YES_NO_KEYS },
      { kind: 'boolean', field: 'only_change', label: 'Is it the only substantive change?', ...YES_NO_KEYS },
      {
        kind: 'choice',
        field: 'severity',
        label: 'Severity of the planted flaw',
        options: [
          { value: 'none', label: 'None (not present)', key: '0' },
          { value: 'minor', label: 'Minor', key: '1' },
          { value: 'major', label: 'Major', key: '2' },
          { value: 'fatal', label: 'Fatal', key: '3' }
        ]
      },
      { kind: 'text', field: 'note', label: 'Note', multiline: true, optional: true }
    ],
    empty: () => ({ flaw_present: null, only_change: null, severity: null, note: '' })
  },
  templates: ['probe-check-judge'],
  blind(payload) {
    const p = probeProvenanceOf(payload)
    if (!p) throw new Error(`${payload.pair_id} is not a probe`)
    const original = p.probe_side === 'a' ? payload.b : payload.a
    const probe = p.probe_side === 'a' ? payload.a : payload.b
    const kind = builtinProbeKind(p.kind)
    const title = p.kind_title ?? kind?.title ?? p.kind
    const instruction = p.kind_instruction ?? kind?.instruction
    return {
      view: {
        intended_flaw: instruction ? `${title}: ${instruction}` : title,
        changes: diffAsMarkdown(p.diff),
        original: proposalMarkdownForView(original),
        probe: proposalMarkdownForView(probe)
      },
      display: {}
    }
  },
  toCanonical: identity,
  toDisplay: identity,
  check(): JudgementIssue[] {
    return []
  },
  observe(j, payload): Observation[] {
    return [{ unit: payload.pair_id, values: { flaw_present: j.flaw_present, only_change: j.only_change, severity: j.severity } }]
  }
}
