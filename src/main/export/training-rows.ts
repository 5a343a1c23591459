import { AssayError } from '../../shared/errors'
import { getInstrument, isInstrumentId, type AnyInstrument, unknownInstrumentMessage } from '../../shared/instruments'
import { payloadAsRead, type ItemKind, type Split } from '../../shared/items/kinds'
import { renderRequest } from '../../shared/templates'
import { finalLabels } from '../adjudication/final-labels'
import { payloadWithContext } from '../annotation/item-context'
import { requestUnits, SkipItem } from '../runner/requests'
import { resolveTemplate, usedValues } from '../runner/templates'
import type { Project } from '../store/project'
import { answerByIdFinder } from '../store/annotations'
import { itemsForExport } from '../store/items'

/** Where an example's label comes from, most authoritative first. */
export const LABEL_SOURCES = ['adjudicated', 'majority', 'single annotator', 'reference'] as const
export type LabelSource = (typeof LABEL_SOURCES)[number]

export interface TrainingExample {
  itemId: number
  item: string
  set: string
  split: Split
  labelSource: LabelSource
  /** The reference's own name (e.g. `expert`, `citations`) when the label is the item's reference label. */
  referenceSource: string | null
  /** The label in canonical terms, as the instrument's judgement schema has it. */
  judgement: Record<string, unknown>
  /** The instrument's prompt rendered for the item in canonical order (side a shown as A). */
  system: string | null
  user: string
  display: Record<string, unknown>
  /** The values the template filled, by placeholder name. */
  values: Record<string, string>
  template: string
}

export interface TrainingRead {
  instrument: AnyInstrument
  template: string
  answerFormat: string | null
  examples: TrainingExample[]
  /** Items left out, by reason: a tied majority, every answer an abstention, no label, a prompt the item cannot fill. */
  excluded: { ties: number; abstentions: number; unrenderable: number; noWholeAnswer: number }
}

export interface TrainingFilter {
  instrument: string
  set?: string | undefined
  split?: Split | undefined
  /** A template other than the instrument's first built-in one (id or id@version). */
  template?: { id: string; version?: number | undefined } | undefined
}

/**
 * Each labelled item of an instrument with its final label (the curator's adjudication, else the human majority,
 * else a single annotator's answer, else the item's own reference label) and the instrument's published prompt
 * rendered for it in canonical order. Ties and abstentions are counted, never written.
 */
export function readTrainingExamples(project: Project, filter: TrainingFilter): TrainingRead {
  if (!isInstrumentId(filter.instrument)) throw new AssayError('invalid_input', unknownInstrumentMessage(filter.instrument), [{ field: '--instrument', message: 'unknown' }])
  const instrument = getInstrument(filter.instrument)
  const templateId = filter.template?.id ?? instrument.templates[0]
  if (!templateId) throw new AssayError('invalid_input', `${instrument.id} has no prompt template to train a judge on`)
  const { template } = resolveTemplate(project.db, templateId, filter.template?.version)
  const ref = `${template.entry.id}@${template.entry.version}`
  const excluded = { ties: 0, abstentions: 0, unrenderable: 0, noWholeAnswer: 0 }
  const answerOf = answerByIdFinder(project.db)
  const labelled = new Map<number, { judgement: Record<string, unknown>; source: LabelSource; reference: string | null }>()
  // People who split evenly or all abstained leave the item out, even where a reference label exists: the experts
  // did not settle it.
  const unsettled = new Set<number>()
  for (const final of finalLabels(project.db, { instrument: instrument.id, set: filter.set, split: filter.split })) {
    const r = final.record
    if (r.final_from === 'adjudication' && r.judgement) {
      if (instrument.isAbstention?.(r.judgement as never)) {
        excluded.abstentions++
        unsettled.add(final.itemId)
      } else labelled.set(final.itemId, { judgement: r.judgement, source: 'adjudicated', reference: null })
    } else if (r.majority === 'decided' && r.judgement) {
      labelled.set(final.itemId, { judgement: r.judgement, source: r.n_answers - r.n_abstained >= 2 ? 'majority' : 'single annotator', reference: null })
    } else if (r.majority === 'decided' && r.based_on.length === 1) {
      // Instruments answered per unit have a majority per unit, not a whole answer; one answer is its own label.
      const row = answerOf(r.based_on[0]!)
      if (row) labelled.set(final.itemId, { judgement: JSON.parse(row.judgement) as Record<string, unknown>, source: 'single annotator', reference: null })
    } else if (r.majority === 'decided') {
      // Several people answered per unit: their per-unit majority is no answer a model could give whole.
      excluded.noWholeAnswer++
      unsettled.add(final.itemId)
    } else if (r.majority === 'tie') {
      excluded.ties++
      unsettled.add(final.itemId)
    } else if (r.majority === 'all_abstained') {
      excluded.abstentions++
      unsettled.add(final.itemId)
    }
  }
  const rows = itemsForExport(project.db, instrument.itemKind, filter.set ?? null, filter.split ?? null) as Array<{
    id: number
    kind: ItemKind
    external_id: string
    set_name: string
    split: Split
    payload: string
  }>
  const examples: TrainingExample[] = []
  for (const row of rows) {
    const payload = payloadAsRead(row.kind, payloadWithContext(project.db, row))
    let label = labelled.get(row.id)
    // Proposal pairs carry a reference label (experts', citations'); it speaks for the verdict when no person answered.
    if (!label && !unsettled.has(row.id) && row.kind === 'proposal-pair' && typeof payload.label === 'string' && instrument.fields.some((f) => f.name === 'verdict')) {
      label = { judgement: { verdict: payload.label }, source: 'reference', reference: typeof payload.label_source === 'string' ? payload.label_source : null }
    }
    if (!label) continue
    let units
    try {
      units = requestUnits(instrument, template, payload, { seed: project.seed, viewer: 'training-export', externalId: row.external_id }, { bothOrders: instrument.id === 'pairwise-preference' })
    } catch (e) {
      if (e instanceof SkipItem) {
        excluded.unrenderable++
        continue
      }
      throw e
    }
    // Canonical order: the unit whose display is not swapped (side a shown as A).
    const unit = units.find((u) => u.display.swapped !== true) ?? units[0]!
    const values = usedValues(template, unit.values)
    const rendered = renderRequest(template, values)
    examples.push({
      itemId: row.id,
      item: row.external_id,
      set: row.set_name,
      split: row.split,
      labelSource: label.source,
      referenceSource: label.reference,
      judgement: label.judgement,
      system: rendered.system ?? null,
      user: rendered.user,
      display: unit.display,
      values,
      template: ref
    })
  }
  return { instrument, template: ref, answerFormat: template.entry.answerFormat ?? null, examples, excluded }
}
