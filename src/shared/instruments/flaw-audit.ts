import { z } from 'zod'
import { containsSpan, SIDE_KEYS } from './common'
import { blindProposalPair, proposalMarkdownForView, swapSide } from './proposal-view'
import type { Instrument, JudgementIssue, Observation } from './types'

/**
 * Flaws of each proposal of a pair (IdeaEval human labels): one answer per pair listing every flaw found on either
 * side; a side with no flaw listed was audited and found clean. Each flaw quotes its evidence from the proposal as
 * shown and may carry a re-runnable check (code and its output), such as a small worked counterexample.
 *
 * The pair is shown in the same per-viewer seeded order as `pairwise-preference`, so an annotator who does both sees
 * one layout; sides are mapped back to canonical order before the answer is stored.
 */

/** Flaw types, versioned: a stored flaw is read against the taxonomy version its instrument version used. */
export const FLAW_TAXONOMY = {
  version: 1,
  types: ['covered_by_prior_work', 'hallucinated_content', 'unsound_method', 'flawed_design', 'infeasible', 'other']
} as const
export const FLAW_TYPES = FLAW_TAXONOMY.types
export type FlawType = (typeof FLAW_TYPES)[number]

export const FLAW_SEVERITIES = ['minor', 'major', 'fatal'] as const
export type FlawSeverity = (typeof FLAW_SEVERITIES)[number]
/** Ordinal scale of a side's worst flaw; `none` when no flaw is listed. */
export const MAX_SEVERITY_LEVELS = ['none', ...FLAW_SEVERITIES] as const

const FLAW_TYPE_LABELS: Record<FlawType, string> = {
  covered_by_prior_work: 'Covered by prior work',
  hallucinated_content: 'Hallucinated content',
  unsound_method: 'Unsound method (e.g. a wrong formula)',
  flawed_design: 'Flawed experimental design',
  infeasible: 'Infeasible',
  other: 'Other'
}

const flawCheckSchema = z.lazy(() => z.object({
  code: z.string().min(1),
  output: z.string(),
  ran_at: z.iso.datetime({ offset: true }),
  // Set by main on submit, never taken from the client: whether main's re-run gave this output (`verified`), gave
  // another one (`mismatch`: main's is in `output`, the client's in `client_output`) or could not be done.
  verification: z.enum(['verified', 'mismatch', 'unverified']).optional(),
  client_output: z.string().optional(),
  verify_note: z.string().optional()
}))

const flawSchema = z.lazy(() => z.object({
  side: z.enum(['a', 'b']),
  type: z.enum(FLAW_TYPES),
  severity: z.enum(FLAW_SEVERITIES),
  evidence: z.string().regex(/\S/, 'Quote at least one word.'),
  /** Where the evidence sits in the proposal's Markdown as shown (its title removed), when taken from a selection. */
  evidence_at: z.object({ start: z.number().int().min(0), end: z.number().int().min(0) }).optional(),
  note: z.string().default(''),
  check: flawCheckSchema.optional()
}).overwrite(trimEvidence))
export type Flaw = z.infer<typeof flawSchema>

/**
 * Evidence is stored without surrounding whitespace. A selection often takes the space after a word with it, so its
 * position moves in by what was trimmed: the span still holds exactly the stored words.
 */
function trimEvidence<F extends { evidence: string; evidence_at?: { start: number; end: number } | undefined }>(f: F): F {
  const evidence = f.evidence.trim()
  if (evidence === f.evidence) return f
  const at = f.evidence_at
  if (!at || at.end - at.start !== f.evidence.length) return { ...f, evidence }
  const start = at.start + (f.evidence.length - f.evidence.trimStart().length)
  return { ...f, evidence, evidence_at: { start, end: start + evidence.length } }
}

/**
 * A flaw a model named that the audit cannot use as given (a quote that is not exact, an unknown type): kept with
 * why, so it counts as unparseable for that flaw instead of vanishing. Only model answers carry these.
 */
const unparseableFlawSchema = z.lazy(() => z.object({
  side: z.enum(['a', 'b']).nullable(),
  type: z.string().nullable(),
  severity: z.string().nullable(),
  evidence: z.string().nullable(),
  error: z.string()
}))
export type UnparseableFlaw = z.infer<typeof unparseableFlawSchema>

export const flawAuditJudgement = z.lazy(() => z.object({
  flaws: z.array(flawSchema),
  /**
   * The audit found no flaw on either side, said explicitly: a person marks it (an empty list alone is refused, see
   * formRules); a model's answer with an empty list of flaws means it.
   */
  no_flaws_found: z.literal(true).optional(),
  comment: z.string().optional(),
  unparseable_flaws: z.array(unparseableFlawSchema).optional()
}))
export type FlawAuditJudgement = z.infer<typeof flawAuditJudgement>

function mapSides(j: FlawAuditJudgement, display: Record<string, unknown>): FlawAuditJudgement {
  if (display.swapped !== true) return j
  const out = { ...j, flaws: j.flaws.map((f) => ({ ...f, side: swapSide(f.side) })) }
  if (j.unparseable_flaws) out.unparseable_flaws = j.unparseable_flaws.map((f) => ({ ...f, side: f.side === null ? null : swapSide(f.side) }))
  return out
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null)

/**
 * A model's answer (sides named "A"/"B" as shown, words in any case) as a judgement candidate: each flaw that fits
 * the flaw schema is kept, each other one is set aside with the schema's reason.
 */
function fromModelFlaws(parsed: unknown): unknown {
  if (parsed === null || typeof parsed !== 'object' || !Array.isArray((parsed as { flaws?: unknown }).flaws)) return parsed
  const answer = parsed as { flaws: unknown[]; comment?: unknown }
  const flaws: Flaw[] = []
  const unparseable: UnparseableFlaw[] = []
  for (const raw of answer.flaws) {
    const r = (raw !== null && typeof raw === 'object' ? raw : {}) as Record<string, unknown>
    const side = text(r.side)?.trim().toLowerCase() ?? null
    const candidate = { side, type: text(r.type)?.trim().toLowerCase() ?? r.type, severity: text(r.severity)?.trim().toLowerCase() ?? r.severity, evidence: r.evidence, note: text(r.note) ?? '' }
    const ok = flawSchema.safeParse(candidate)
    if (ok.success) flaws.push(ok.data)
    else {
      unparseable.push({
        side: side === 'a' || side === 'b' ? side : null,
        type: text(r.type),
        severity: text(r.severity),
        evidence: text(r.evidence),
        error: ok.error.issues.map((i) => `${i.path.join('.') || 'flaw'}: ${i.message}`).join('; ')
      })
    }
  }
  return {
    flaws,
    // The published prompt asks for a list of flaws: an empty one is the model's "no flaws found".
    ...(flaws.length === 0 && unparseable.length === 0 ? { no_flaws_found: true as const } : {}),
    ...(typeof answer.comment === 'string' ? { comment: answer.comment } : {}),
    ...(unparseable.length ? { unparseable_flaws: unparseable } : {})
  }
}

/** Flaws whose evidence fails the item's exact-quote check move to `unparseable_flaws`, each with its message. */
function setAsideUnquoted(j: FlawAuditJudgement, issues: JudgementIssue[]): { judgement: FlawAuditJudgement; issues: JudgementIssue[] } {
  const failed = new Map<number, string>()
  const rest: JudgementIssue[] = []
  for (const issue of issues) {
    const m = /^flaws\.(\d+)\.evidence$/.exec(issue.path)
    if (m) failed.set(Number(m[1]), issue.message)
    else rest.push(issue)
  }
  if (failed.size === 0) return { judgement: j, issues }
  const set: UnparseableFlaw[] = [...failed].map(([i, error]) => {
    const f = j.flaws[i]!
    return { side: f.side, type: f.type, severity: f.severity, evidence: f.evidence, error }
  })
  return {
    judgement: { ...j, flaws: j.flaws.filter((_, i) => !failed.has(i)), unparseable_flaws: [...(j.unparseable_flaws ?? []), ...set] },
    issues: rest
  }
}

function shownMarkdown(view: Record<string, unknown>, side: 'a' | 'b'): string {
  const shown = view[side]
  const md = shown !== null && typeof shown === 'object' ? (shown as { markdown?: unknown }).markdown : undefined
  return typeof md === 'string' ? md : ''
}

function evidenceIssues(f: Flaw, markdown: string, where: string, i: number): JudgementIssue[] {
  if (!containsSpan(markdown, f.evidence)) return [{ path: `flaws.${i}.evidence`, message: `The evidence is not an exact quote of ${where}.` }]
  if (f.evidence_at && markdown.slice(f.evidence_at.start, f.evidence_at.end) !== f.evidence) {
    return [{ path: `flaws.${i}.evidence`, message: `The evidence's position does not hold these words in ${where}; quote it again.` }]
  }
  return []
}

function maxSeverity(flaws: ReadonlyArray<Flaw>): (typeof MAX_SEVERITY_LEVELS)[number] {
  let worst = 0
  for (const f of flaws) worst = Math.max(worst, MAX_SEVERITY_LEVELS.indexOf(f.severity))
  return MAX_SEVERITY_LEVELS[worst] ?? 'none'
}

/** A person's audit lists flaws or says there are none, never both and never neither. */
function noFlawsRule(answer: unknown): JudgementIssue[] {
  const a = (answer !== null && typeof answer === 'object' ? answer : {}) as { flaws?: unknown; no_flaws_found?: unknown }
  const count = Array.isArray(a.flaws) ? a.flaws.length : 0
  const none = a.no_flaws_found === true
  if (count === 0 && !none) return [{ path: 'no_flaws_found', message: 'List a flaw (+), or mark "No flaws found" (0).' }]
  if (count > 0 && none) return [{ path: 'no_flaws_found', message: `"No flaws found" is marked but ${count} flaw${count === 1 ? ' is' : 's are'} listed: clear the mark (0) or remove the flaws.` }]
  return []
}

export const flawAudit: Instrument<'proposal-pair', FlawAuditJudgement> = {
  id: 'flaw-audit',
  // 2: evidence keeps its position in the proposal as shown (evidence_at). 3: an audit without flaws says so
  // (no_flaws_found).
  version: 3,
  title: 'Flaws of each proposal',
  description:
    'Audit both proposals for flaws: prior work that already covers the contribution, hallucinated content, unsound ' +
    'methods, flawed experimental design, infeasibility. Quote the evidence exactly; attach a runnable check where ' +
    'one exists. A side without listed flaws counts as audited and clean.',
  itemKind: 'proposal-pair',
  judgement: flawAuditJudgement,
  fields: [
    { name: 'has_fatal', label: 'Has a fatal flaw', level: 'nominal', categories: [false, true] },
    { name: 'max_severity', label: 'Worst flaw', level: 'ordinal', categories: MAX_SEVERITY_LEVELS }
  ],
  form: {
    widgets: [
      {
        kind: 'list',
        field: 'flaws',
        label: 'Flaws',
        itemLabel: 'Flaw',
        widgets: [
          {
            kind: 'choice',
            field: 'side',
            label: 'Proposal',
            options: [
              { value: 'a', label: 'A (left)', key: SIDE_KEYS.a },
              { value: 'b', label: 'B (right)', key: SIDE_KEYS.b }
            ]
          },
          {
            kind: 'choice',
            field: 'type',
            label: `Type (taxonomy v${FLAW_TAXONOMY.version})`,
            options: FLAW_TYPES.map((t, i) => ({ value: t, label: FLAW_TYPE_LABELS[t], key: String(i + 1) }))
          },
          {
            kind: 'choice',
            field: 'severity',
            label: 'Severity',
            options: [
              { value: 'minor', label: 'Minor', key: '1' },
              { value: 'major', label: 'Major', key: '2' },
              { value: 'fatal', label: 'Fatal', key: '3' }
            ]
          },
          // The quote is taken from the proposal named by `side`.
          { kind: 'quote', field: 'evidence', label: 'Evidence (exact quote)', source: ['a.markdown', 'b.markdown'], spanField: 'evidence_at' },
          { kind: 'text', field: 'note', label: 'Note', multiline: true, optional: true },
          { kind: 'code', field: 'check', label: 'Check anyone can re-run (code, output, time run)', optional: true }
        ]
      },
      // After the list, so an audit opens on adding a flaw; its key works from anywhere outside a text box.
      {
        kind: 'choice',
        field: 'no_flaws_found',
        label: 'No flaws found',
        optional: true,
        says: 'required when no flaw is listed',
        options: [{ value: true, label: 'No flaws found on either side', key: '0' }]
      },
      { kind: 'text', field: 'comment', label: 'Comment', multiline: true, optional: true }
    ],
    empty: () => ({ flaws: [], comment: '' })
  },
  // Written for Assay: the sources give no flaw-audit prompt (the pairwise ranker names fatal flaws only).
  templates: ['flaw-audit-judge'],
  blind: blindProposalPair,
  toCanonical: mapSides,
  toDisplay: mapSides,
  formRules: noFlawsRule,
  checkShown(j, view): JudgementIssue[] {
    return j.flaws.flatMap((f, i) => evidenceIssues(f, shownMarkdown(view, f.side), `the ${f.side === 'a' ? 'left proposal (A)' : 'right proposal (B)'}`, i))
  },
  check(j, payload): JudgementIssue[] {
    // Canonical sides are hidden from annotators: this message names no side (checkShown names the side as shown).
    return j.flaws.flatMap((f, i) => evidenceIssues(f, proposalMarkdownForView(payload[f.side]), 'the proposal the flaw names', i))
  },
  fromModelAnswer: fromModelFlaws,
  setAsideModelIssues: setAsideUnquoted,
  observe(j, payload): Observation[] {
    return (['a', 'b'] as const).map((side) => {
      const flaws = j.flaws.filter((f) => f.side === side)
      return {
        unit: `${payload.pair_id}:${side}`,
        values: { has_fatal: flaws.some((f) => f.severity === 'fatal'), max_severity: maxSeverity(flaws) }
      }
    })
  }
}
