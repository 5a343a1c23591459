import type { ErrorLocation } from '../../shared/errors'
import type { Split } from '../../shared/items/kinds'
import { adjudicationAppender, adjudicationHeadFinder } from '../store/adjudications'
import { appendAnnotation, sourceHeadFinder } from '../store/annotations'
import { insertImport } from '../store/imports'
import { ensureAnnotator } from '../store/annotators'
import { markAnsweredAssignmentsDone } from '../store/assignments'
import { insertItems } from '../store/items'
import { recordImportedProbes } from './probe-rows'
import type { Project } from '../store/project'
import type { AdjudicationDraft, AnnotationDraft, ItemDraft } from './types'
import type { WritableDB } from '../store/database'

export interface ImportProgress {
  phase: 'reading' | 'validating' | 'writing' | 'done'
  done?: number
  total?: number
}

export interface WritePlan {
  format: string
  source: string
  set: string
  split: Split
  items: ItemDraft[]
  annotations: AnnotationDraft[]
  warnings: ErrorLocation[]
  /** Curators' final labels (only a labels file carries them). */
  adjudications?: AdjudicationDraft[] | undefined
  onProgress?: ((p: ImportProgress) => void) | undefined
}

/** An imported answer that keeps the id it was given where it was made, so adjudications resting on it still do. */
export interface ImportedAnnotationDraft extends AnnotationDraft {
  annotationId?: string | undefined
}


/** Rows per insert batch between progress reports; all batches share the one transaction. */
const BATCH = 1000

/**
 * Writes one import in ONE transaction: the `imports` row, every item, every annotation. A crash or kill at any
 * point leaves either all of it or none of it (SQLite rolls back an unfinished transaction on the next open).
 */
export function writeImport(project: Project, plan: WritePlan): number {
  return project.write((db) => {
    const importId = insertImport(db, { format: plan.format, source: plan.source, set: plan.set, itemCount: plan.items.length, labelCount: plan.annotations.length, warnings: plan.warnings })
    const total = plan.items.length + plan.annotations.length
    let done = 0
    plan.onProgress?.({ phase: 'writing', done, total })
    const itemIds: number[] = []
    for (let start = 0; start < plan.items.length; start += BATCH) {
      const batch = plan.items.slice(start, start + BATCH)
      const ids = insertItems(
        db,
        batch.map((d) => ({ kind: d.kind, externalId: d.externalId, set: plan.set, split: plan.split, payload: d.payload })),
        importId
      )
      itemIds.push(...ids)
      done += batch.length
      plan.onProgress?.({ phase: 'writing', done, total })
    }
    recordImportedProbes(db, plan.items, itemIds)
    if (plan.annotations.length) {
      writeAnnotations(project, db, plan.annotations, importId)
      // An annotator's answers given elsewhere count in their queue as answers given here.
      markAnsweredAssignmentsDone(db)
      done += plan.annotations.length
      plan.onProgress?.({ phase: 'writing', done, total })
    }
    // After the answers: an adjudication rests on them.
    writeAdjudications(db, plan.adjudications ?? [])
    return importId
  })
}

/**
 * Appends imported labels. Annotations are append-only: an imported answer for an (item, instrument, source) that
 * already has one becomes a revision superseding the latest, so earlier answers stay in the history.
 */
function writeAnnotations(project: Project, db: WritableDB, drafts: ReadonlyArray<AnnotationDraft>, importId: number): void {
  const head = sourceHeadFinder(db)
  const annotators = new Map<string, number>()
  for (const d of drafts) {
    let annotatorId: number | null = null
    if (d.sourceKind === 'human') {
      annotatorId = annotators.get(d.sourceName) ?? ensureAnnotator(project, d.sourceName).id
      annotators.set(d.sourceName, annotatorId)
    }
    const prior = head(d.itemId, d.instrumentId, d.sourceKind, d.sourceName)
    appendAnnotation(db, {
      itemId: d.itemId,
      instrumentId: d.instrumentId,
      instrumentVersion: d.instrumentVersion,
      annotatorId,
      sourceKind: d.sourceKind,
      sourceName: d.sourceName,
      judgement: d.judgement,
      display: d.display,
      supersedes: prior?.id ?? null,
      activeMs: d.activeMs,
      origin: 'import',
      importId,
      ...((d as ImportedAnnotationDraft).annotationId ? { id: (d as ImportedAnnotationDraft).annotationId } : {}),
      ...(d.createdAt ? { createdAt: d.createdAt } : {})
    })
  }
}

/**
 * Appends imported adjudications, each after the current head of its item's chain (append-only, like answers).
 * One whose id the project already has was left out by the parser: a re-import changes nothing.
 */
function writeAdjudications(db: WritableDB, drafts: ReadonlyArray<AdjudicationDraft>): void {
  if (!drafts.length) return
  const head = adjudicationHeadFinder(db)
  const append = adjudicationAppender(db)
  for (const d of drafts) {
    const prior = head(d.itemId, d.instrumentId)
    append({ id: d.id, itemId: d.itemId, instrumentId: d.instrumentId, judgement: d.judgement, reason: d.reason, curator: d.curator, basedOn: d.basedOn, supersedes: prior?.id ?? null, createdAt: d.createdAt })
  }
}
