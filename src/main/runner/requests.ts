import type { AnyInstrument, BlindingContext, InstrumentId } from '../../shared/instruments'
import { MissingContextError } from '../../shared/instruments'
import type { Hypothesis } from '../../shared/items/kinds'
import { formatBulletList, formatHypothesisText, formatLabelledBlocks, joinSemicolons, seededUnit } from '../../shared/protocol'
import type { Template } from '../../shared/templates'

// What each instrument's requests are made of: the values its templates' placeholders take, built from the same
// blinded view a person sees (so a model is never shown what an annotator may not see), plus the display mapping
// that turns the answer back into canonical order. One item gives one request, except when both orders of a pair are
// asked, or when claims are asked one per conversation.

/** The placeholder names an instrument's requests supply; a user template may use any of them as `{{name}}`. */
export const VALUE_NAMES: Partial<Record<InstrumentId, readonly string[]>> = {
  'pairwise-preference': ['proposal_a', 'proposal_b', 'literature_review', 'topic'],
  'hypothesis-match': ['background', 'question', 'reference_finding', 'key_points_list', 'key_points_semicolons', 'hypotheses'],
  'forecast-detailed': ['background', 'question', 'hypotheses'],
  'forecast-short': ['background', 'question', 'hypotheses', 'claim_id', 'claim'],
  'leak-audit': ['background', 'question', 'reference_finding', 'key_points_semicolons', 'key_points_list'],
  'cue-rating': ['task_id', 'background', 'question', 'reference_finding', 'key_points_list'],
  'fs-olympiad-grade': ['problem', 'reference_answer', 'answer'],
  'fs-research-grade': ['problem', 'rubric', 'answer'],
  'idea-review': ['idea'],
  'flaw-audit': ['proposal_a', 'proposal_b'],
  'idea-similarity': ['keyword', 'first_idea', 'second_idea'],
  'preprint-same-study': ['paper_title', 'paper_authors', 'paper_abstract', 'preprint_title', 'preprint_authors', 'preprint_abstract'],
  'reference-comparison': ['finding_a', 'key_points_a', 'finding_b', 'key_points_b'],
  'probe-check': ['intended_flaw', 'changes', 'original', 'probe']
}

/** The placeholder names of an instrument's requests, built-in or declared; undefined where models are not asked it. */
export function valueNamesOf(instrument: AnyInstrument): readonly string[] | undefined {
  return instrument.declared ? Object.keys(instrument.declared.values({})) : VALUE_NAMES[instrument.id]
}

/** Instruments whose two sides can be shown in either order (`--both-orders`). */
export const ORDERABLE: ReadonlySet<InstrumentId> = new Set(['pairwise-preference', 'idea-similarity'])

/** An item that cannot be asked with this template, and why (reported by the plan, never sent). */
export class SkipItem extends Error {}

export interface RequestUnit {
  /** 0 for the item as shown; 1 for the other order of a pair; the claim's index when claims go one by one. */
  orderIndex: number
  /** Stored with the call; maps the answer back to canonical order. */
  display: Record<string, unknown>
  values: Record<string, string>
}

export interface UnitOptions {
  bothOrders: boolean
}

type View = Record<string, any>

function str(v: unknown): string {
  return typeof v === 'string' ? v : ''
}

function keyPoints(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : []
}

function labelled(view: View, prefix: 'P' | 'H'): string {
  const hypotheses = Array.isArray(view.hypotheses) ? (view.hypotheses as { text: string }[]) : []
  return formatLabelledBlocks(prefix, hypotheses.map((h) => h.text))
}

function authors(v: unknown): string {
  return Array.isArray(v) ? v.map(String).join(', ') : str(v)
}

function uses(template: Template, name: string): boolean {
  const p = template.entry.placeholders.find((x) => x.name === name)
  return !!p && Object.values(template.parts).some((t) => t.includes(p.token))
}

function need(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new SkipItem(`no ${what}`)
  return value
}

/** The anonymous id of a claim asked on its own: "H" and twelve digits, fixed by the run seed and the hypothesis. */
export function claimId(seed: string, setId: string, hypothesisId: string): string {
  const digits = Math.floor(seededUnit(seed, `claim:${setId}:${hypothesisId}`) * 1e12)
  return `H${String(digits).padStart(12, '0')}`
}

/**
 * The requests for one item. Throws SkipItem when the item lacks what the template needs (a hypothesis set without
 * its task, a grading item without a response, a pair without the literature review the template asks for).
 */
export function requestUnits(
  instrument: AnyInstrument,
  template: Template,
  payload: Record<string, unknown>,
  ctx: BlindingContext,
  options: UnitOptions
): RequestUnit[] {
  if (options.bothOrders && !ORDERABLE.has(instrument.id)) throw new SkipItem(`${instrument.id} has no second order to ask`)
  if (instrument.id === 'forecast-short' && uses(template, 'claim')) return claimUnits(payload, ctx)
  let blind
  try {
    blind = instrument.blind(payload as never, ctx)
  } catch (e) {
    if (e instanceof MissingContextError) throw new SkipItem(e.message)
    throw e
  }
  const view = blind.view as View
  // A declared instrument's values come from its declaration; a built-in one's from its case below.
  const values = instrument.declared ? instrument.declared.values(view) : valuesOf(instrument.id, view, payload, template)
  const first: RequestUnit = { orderIndex: 0, display: blind.display, values }
  if (!options.bothOrders) return [first]
  return [first, otherOrder(instrument.id, view, blind.display, payload, template)]
}

function valuesOf(id: InstrumentId, view: View, payload: Record<string, unknown>, template: Template): Record<string, string> {
  switch (id) {
    case 'pairwise-preference':
      return {
        proposal_a: str(view.a?.markdown),
        proposal_b: str(view.b?.markdown),
        topic: str(view.topic),
        ...(uses(template, 'literature_review') ? { literature_review: need(payload.literature_review, 'literature review (payload.literature_review)') } : {})
      }
    case 'hypothesis-match':
      return {
        background: str(view.background),
        question: str(view.question),
        reference_finding: str(view.reference?.finding),
        key_points_list: formatBulletList(keyPoints(view.reference?.key_points)),
        key_points_semicolons: joinSemicolons(keyPoints(view.reference?.key_points)),
        hypotheses: labelled(view, 'P')
      }
    case 'forecast-detailed':
    case 'forecast-short':
      if ((uses(template, 'background') || uses(template, 'question')) && view.question === undefined) {
        throw new SkipItem('no task (background and question) for this hypothesis set')
      }
      return { background: str(view.background), question: str(view.question), hypotheses: labelled(view, 'H') }
    case 'leak-audit':
      return {
        background: str(view.background),
        question: str(view.question),
        reference_finding: str(view.finding),
        key_points_semicolons: joinSemicolons(keyPoints(view.key_points)),
        key_points_list: formatBulletList(keyPoints(view.key_points))
      }
    case 'cue-rating':
      return {
        task_id: str(payload.question_id),
        background: str(view.background),
        question: str(view.question),
        reference_finding: need(view.reference?.finding, 'reference answer'),
        key_points_list: formatBulletList(keyPoints(view.reference?.key_points))
      }
    case 'fs-olympiad-grade':
      return { problem: str(view.problem), reference_answer: str(view.reference_answer), answer: need(view.response, 'response to grade') }
    case 'fs-research-grade':
      return { problem: str(view.problem), rubric: str(payload.answer), answer: need(view.response, 'response to grade') }
    case 'idea-review':
      return { idea: str(view.idea) }
    case 'idea-similarity':
      return { keyword: str(view.keyword), first_idea: str(view.first), second_idea: str(view.second) }
    case 'preprint-same-study':
      return {
        paper_title: str(view.paper?.title),
        paper_authors: authors(view.paper?.authors),
        paper_abstract: str(view.paper?.abstract),
        preprint_title: str(view.preprint?.title),
        preprint_authors: authors(view.preprint?.authors),
        preprint_abstract: str(view.preprint?.abstract)
      }
    case 'reference-comparison':
      return {
        finding_a: str(view.reader_a?.finding),
        key_points_a: joinSemicolons(keyPoints(view.reader_a?.key_points)),
        finding_b: str(view.reader_b?.finding),
        key_points_b: joinSemicolons(keyPoints(view.reader_b?.key_points))
      }
    case 'flaw-audit':
      return { proposal_a: str(view.a?.markdown), proposal_b: str(view.b?.markdown) }
    case 'probe-check':
      return { intended_flaw: str(view.intended_flaw), changes: str(view.changes), original: str(view.original), probe: str(view.probe) }
    default:
      throw new SkipItem(`models are not asked ${id}`)
  }
}

/** The same pair with its two sides exchanged: the mirror of the seeded order. */
function otherOrder(id: InstrumentId, view: View, display: Record<string, unknown>, payload: Record<string, unknown>, template: Template): RequestUnit {
  const swapped = display.swapped === true
  const mirrored: View = id === 'pairwise-preference' ? { ...view, a: view.b, b: view.a } : { ...view, first: view.second, second: view.first }
  return { orderIndex: 1, display: { ...display, swapped: !swapped }, values: valuesOf(id, mirrored, payload, template) }
}

/** One request per hypothesis, each in a fresh conversation without background or question (the source's rule). */
function claimUnits(payload: Record<string, unknown>, ctx: BlindingContext): RequestUnit[] {
  const hypotheses = (Array.isArray(payload.hypotheses) ? payload.hypotheses : []) as Hypothesis[]
  const setId = str(payload.set_id) || ctx.externalId
  return hypotheses.map((h, i) => {
    const id = claimId(ctx.seed, setId, h.id)
    return {
      orderIndex: i,
      display: { order: [h.id], claimId: id },
      values: { claim_id: id, claim: formatHypothesisText({ statement: h.statement, mechanism: h.mechanism ?? '', prediction: h.prediction ?? '' }) }
    }
  })
}
