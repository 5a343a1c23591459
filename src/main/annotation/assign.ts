import { AssayError } from '../../shared/errors'
import { getInstrument, hasGradedText, isInstrumentId, unknownInstrumentMessage } from '../../shared/instruments'
import { seededUnit } from '../../shared/protocol'
import type { Split } from '../../shared/items/kinds'
import { ensureAnnotator, findAnnotator } from '../store/annotators'
import { insertAssignment, markAnsweredAssignmentsDone } from '../store/assignments'
import { itemsOfKind, setsOfItems } from '../store/items'
import type { Project } from '../store/project'
import { payloadWithContext } from './item-context'

export interface AssignOptions {
  instrumentId: string
  annotators: string[]
  /** How many annotators see each item. */
  overlap: number
  set?: string | undefined
  split?: Split | undefined
  seed?: string | undefined
  /** Refuse names that have no profile yet instead of creating one. */
  existingOnly?: boolean | undefined
}

export interface AssignResult {
  items: number
  created: number
  perAnnotator: Record<string, number>
  seed: string
}

/** Whether a payload holds something to grade in `field` (a response with some words). */
/**
 * A grading instrument is refused, before anything is written, when any item it would be assigned to has no
 * response to grade; the message counts them and names the sets whose items do have responses.
 */
function refuseUngraded(
  instrumentId: string,
  field: string | undefined,
  eligible: ReadonlyArray<{ id: number }>,
  payloads: ReadonlyMap<number, Record<string, unknown>>,
  db: Project['db']
): void {
  if (!field) return
  const missing = eligible.filter((r) => !hasGradedText(payloads.get(r.id), field))
  if (missing.length === 0) return
  const graded = eligible.filter((r) => hasGradedText(payloads.get(r.id), field)).map((r) => r.id)
  const sets = setsOfItems(db, graded).map((name) => `"${name}"`).join(', ')
  // The items lack what the instrument needs: a refusal about the data, not a mistyped command.
  throw new AssayError(
    'bad_data',
    `${missing.length} of the ${eligible.length} items for ${instrumentId} have no response to grade, so none were assigned. ` +
      (sets ? `Choose a set whose items carry responses (${sets}).` : 'Import responses to grade first (a "response" field per problem).'),
    [{ field: field, message: `${missing.length} item${missing.length === 1 ? '' : 's'} without a ${field}` }]
  )
}

/**
 * Gives each eligible item to `overlap` annotators, balanced (item i in a seeded shuffle goes to annotators
 * i·k … i·k+k−1 modulo n), and orders each annotator's queue by a seeded hash of annotator and item, so no two
 * people work in the same order. Existing assignments are kept; re-running adds only what is missing.
 */
export function assignItems(project: Project, opts: AssignOptions): AssignResult {
  // A declared instrument's id is known only with the project open: an unknown one is a usage error, as a flag is.
  if (!isInstrumentId(opts.instrumentId)) throw new AssayError('invalid_input', unknownInstrumentMessage(opts.instrumentId))
  const instrument = getInstrument(opts.instrumentId)
  const names = [...new Set(opts.annotators.map((n) => n.trim()).filter(Boolean))]
  if (names.length === 0) throw new AssayError('invalid_input', 'Name at least one annotator', [{ field: 'annotators', message: 'empty' }])
  if (!Number.isInteger(opts.overlap) || opts.overlap < 1 || opts.overlap > names.length) {
    throw new AssayError('invalid_input', `Overlap must be from 1 to the number of annotators (${names.length})`, [{ field: 'overlap', message: `got ${opts.overlap}` }])
  }
  if (opts.existingOnly) {
    const missing = names.filter((n) => !findAnnotator(project, n))
    if (missing.length) {
      throw new AssayError('not_found', `No annotator named ${missing.map((n) => `"${n}"`).join(', ')} in this project; add the profile first`, [
        { field: 'annotators', message: `unknown: ${missing.join(', ')}` }
      ])
    }
  }
  const seed = opts.seed ?? project.seed
  const db = project.db
  const rows = itemsOfKind(db, instrument.itemKind, opts.set ?? null, opts.split ?? null)
  const payloads = new Map(rows.map((r) => [r.id, payloadWithContext(db, r as never)]))
  const eligible = rows.filter((r) => !instrument.accepts || instrument.accepts(payloads.get(r.id) as never))
  refuseUngraded(instrument.id, instrument.grades, eligible, payloads, db)
  const annotators = names.map((n) => ensureAnnotator(project, n))
  const ordered = [...eligible].sort((x, y) => seededUnit(seed, `assign:${x.external_id}`) - seededUnit(seed, `assign:${y.external_id}`))
  const perAnnotator: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]))
  let created = 0
  project.write((db) => {
    ordered.forEach((item, i) => {
      for (let j = 0; j < opts.overlap; j++) {
        const a = annotators[(i * opts.overlap + j) % annotators.length]!
        // Positions are a seeded permutation per annotator, scaled to integers for stable ordering.
        const position = Math.floor(seededUnit(seed, `queue:${a.name}:${instrument.id}:${item.external_id}`) * 2 ** 31)
        if (insertAssignment(db, a.id, item.id, instrument.id, position)) {
          created++
          perAnnotator[a.name] = (perAnnotator[a.name] ?? 0) + 1
        }
      }
    })
    // An annotator's answers imported before the assignment make it done.
    markAnsweredAssignmentsDone(db)
  })
  return { items: eligible.length, created, perAnnotator, seed }
}
