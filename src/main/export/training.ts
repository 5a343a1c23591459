import { mkdirSync, rmSync } from 'node:fs'
import { basename, join } from 'node:path'
import { AssayError } from '../../shared/errors'
import type { Split } from '../../shared/items/kinds'
import { logExposure } from '../store/exposures'
import type { Project } from '../store/project'
import { answerText, mirroredVerdict } from './answer-text'
import { hfDatasetCard } from './hf-card'
import { checkOutputFolder, checkOutputPath, pathError, writeOutputFiles } from '../files/output-file'
import { toJsonl } from '../files/table'
import { LABEL_SOURCES, readTrainingExamples, type TrainingExample, type TrainingRead } from './training-rows'
import { exposureFinder } from '../store/exposures'
import type { TrainingExportKind } from './kinds'


export interface TrainingExportOptions {
  /** A folder: one JSONL per split and a README.md dataset card. */
  out: string
  instrument?: string | undefined
  set?: string | undefined
  split?: Split | undefined
  /** The license named in the card's front matter (a Hugging Face license id; default `other`). */
  license?: string | undefined
  force?: boolean | undefined
}

export interface TrainingExportResult {
  what: TrainingExportKind
  dir: string
  card: string
  files: Array<{ split: string; path: string; rows: number }>
  rows: number
  excluded: TrainingRead['excluded']
}

/** Hugging Face split names: Assay's dev and test as they are, items outside any split as `unsplit`. */
const splitName = (s: Split) => (s === 'none' ? 'unsplit' : s)

type Message = { role: 'system' | 'user' | 'assistant'; content: string }

function promptMessages(e: TrainingExample): Message[] {
  return [...(e.system !== null ? [{ role: 'system' as const, content: e.system }] : []), { role: 'user', content: e.user }]
}

function provenance(e: TrainingExample, instrument: string) {
  return { item: e.item, set: e.set, split: e.split, instrument, template: e.template, label_source: e.labelSource, reference_source: e.referenceSource }
}

/**
 * Writes a labelled set people train judges with, as a folder that loads with the `datasets` library:
 * - `preferences`: `{prompt, chosen, rejected}` in the conversational form preference trainers read (TRL's DPO):
 *   the instrument's prompt in canonical order, the expert verdict as the chosen answer and its mirror image as the
 *   rejected one;
 * - `finetune`: `{"messages": [system, user, assistant]}`, the assistant turn the expert label in the instrument's
 *   answer format.
 * Each row names its label source and split; ties and abstentions are left out and counted in the card. Test items
 * written are logged as exposed, as every export does.
 */
export function exportTraining(project: Project, what: TrainingExportKind, opts: TrainingExportOptions): TrainingExportResult {
  const instrumentId = opts.instrument ?? 'pairwise-preference'
  // The license is one value of the card's front matter: a line break or other control character would start a key.
  if (opts.license !== undefined && (!opts.license.trim() || /\p{Cc}/u.test(opts.license))) {
    throw new AssayError('invalid_input', '--license must be one line of text (a Hugging Face license id such as mit or cc-by-4.0)', [{ field: '--license', message: 'empty or holds a line break or control character' }])
  }
  const read = readTrainingExamples(project, { instrument: instrumentId, set: opts.set, split: opts.split })
  const pairwise = read.instrument.fields.some((f) => f.name === 'verdict') && read.instrument.fields.some((f) => f.name === 'winner')
  if (what === 'preferences' && !pairwise) {
    throw new AssayError('invalid_input', `preferences are pairwise: ${instrumentId} has no pair verdict; use finetune`, [{ field: '--instrument', message: 'not pairwise' }])
  }
  const guard = { force: opts.force ?? false, protect: [project.path] }
  const dir = checkOutputFolder(opts.out, guard)
  const bySplit = new Map<string, object[]>()
  for (const e of read.examples) {
    const record =
      what === 'preferences'
        ? {
            prompt: promptMessages(e),
            chosen: [{ role: 'assistant', content: answerText(read.instrument, read.answerFormat, e.judgement, e.display) }],
            rejected: [{ role: 'assistant', content: answerText(read.instrument, read.answerFormat, { verdict: mirroredVerdict(String(e.judgement.verdict)) }, e.display) }],
            verdict: e.judgement.verdict,
            ...provenance(e, instrumentId)
          }
        : {
            messages: [...promptMessages(e), { role: 'assistant', content: answerText(read.instrument, read.answerFormat, e.judgement, e.display) }],
            ...provenance(e, instrumentId)
          }
    const name = splitName(e.split)
    const list = bySplit.get(name) ?? []
    list.push(record)
    bySplit.set(name, list)
  }
  if (bySplit.size === 0) {
    throw new AssayError('bad_data', `No labelled ${instrumentId} item to export (ties: ${read.excluded.ties}, abstentions: ${read.excluded.abstentions})`, [{ field: 'labels', message: 'none' }])
  }
  const order = ['dev', 'test', 'unsplit']
  const files = [...bySplit.entries()]
    .sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]))
    .map(([split, records]) => ({ split, path: join(dir, `${split}.jsonl`), rows: records.length, content: toJsonl(records) }))
  const testItems = read.examples.filter((e) => e.split === 'test').map((e) => e.itemId)
  if (testItems.length && project.readonly) {
    throw new AssayError('conflict', `${project.path} is open read-only, so exporting its test-split items could not be recorded in the exposure log; export with --split dev, or make the file writable`)
  }
  const card = join(dir, 'README.md')
  const cardText = hfDatasetCard({
    title: `${read.instrument.title}: ${what === 'preferences' ? 'expert preferences' : 'expert answers for fine-tuning'} (${project.meta('name') ?? basename(project.path)})`,
    license: opts.license ?? 'other',
    taskCategories: what === 'preferences' ? ['text-generation', 'text-classification'] : ['text-generation'],
    tags: ['llm-as-a-judge', 'assay', what === 'preferences' ? 'preference' : 'sft'],
    splits: files.map((f) => ({ name: f.split, path: basename(f.path), rows: f.rows })),
    body: cardBody(project, what, read, files, exposedCount(project, read.examples))
  })
  const outputs = [...files.map((f) => ({ path: f.path, content: f.content })), { path: card, content: cardText }]
  // Every file is checked before the folder is made, so a refusal leaves no empty folder behind.
  for (const o of outputs) checkOutputPath(o.path, guard)
  let made: string | undefined
  try {
    made = mkdirSync(dir, { recursive: true })
    writeOutputFiles(outputs, guard)
  } catch (e) {
    // Only what this export made (it did not exist before), so it holds nothing of anyone's.
    if (made) rmSync(made, { recursive: true, force: true })
    throw pathError(e, dir)
  }
  if (testItems.length) {
    project.write((db) => {
      for (const id of testItems) logExposure(db, id, 'exported', 'export', JSON.stringify({ what, file: basename(dir) }))
    })
  }
  return { what, dir, card, files: files.map(({ split, path, rows }) => ({ split, path, rows })), rows: read.examples.length, excluded: read.excluded }
}

function exposedCount(project: Project, examples: readonly TrainingExample[]): number {
  const exposed = exposureFinder(project.db)
  return examples.filter((e) => e.split === 'test' && exposed(e.itemId)).length
}

/** Counts recomputed from the rows written: splits, label sources, label balance and its majority baseline, exclusions. */
function cardBody(project: Project, what: TrainingExportKind, read: TrainingRead, files: ReadonlyArray<{ split: string; rows: number }>, exposed: number): string {
  const n = read.examples.length
  const count = <K extends string>(keys: readonly K[], of: (e: TrainingExample) => K) => keys.map((k) => [k, read.examples.filter((e) => of(e) === k).length] as const)
  const sources = count(LABEL_SOURCES, (e) => e.labelSource).filter(([, c]) => c > 0)
  const lines = [
    `Exported by Assay from the project "${project.meta('name') ?? basename(project.path)}" (${project.id}) on ${new Date().toISOString()}.`,
    '',
    `- Instrument: \`${read.instrument.id}\`; prompt template \`${read.template}\`, rendered in canonical order (side a shown as A).`,
    what === 'preferences'
      ? '- Format: `prompt` (system and user messages), `chosen` (the expert verdict in the template\'s JSON answer format) and `rejected` (its mirror image), the conversational preference layout of TRL.'
      : '- Format: `messages` (system, user, assistant); the assistant turn is the expert label in the template\'s JSON answer format.',
    '- Label precedence: a standing adjudication, else the human majority (two or more answers), else a single annotator, else the item\'s reference label.',
    '',
    '| split | rows |',
    '|---|---|',
    ...files.map((f) => `| ${f.split} | ${f.rows} |`),
    `| total | ${n} |`,
    '',
    '| label source | rows |',
    '|---|---|',
    ...sources.map(([k, c]) => `| ${k} | ${c} |`),
    '',
    `Left out: ${read.excluded.ties} tied majorities, ${read.excluded.abstentions} items where every answer abstained, ${read.excluded.unrenderable} items the prompt could not be filled for, ${read.excluded.noWholeAnswer} items answered per unit by several people without an adjudication (no single answer to write).`
  ]
  const sides = read.examples.map((e) => (typeof e.judgement.verdict === 'string' ? e.judgement.verdict.slice(0, 1) : null)).filter((s): s is string => s !== null)
  if (sides.length) {
    const a = sides.filter((s) => s === 'a').length
    lines.push('', `Label balance: side a better in ${a}, side b better in ${sides.length - a}; always picking the majority side scores ${((100 * Math.max(a, sides.length - a)) / sides.length).toFixed(1)}%.`)
  }
  lines.push(
    '',
    exposed
      ? `Exposure: ${exposed} test item(s) here had labels or judge outputs viewed, or a label put in a prompt, before this export (exposure log); they are no longer clean held-out items.`
      : 'Exposure: no test item here appears in the exposure log before this export.',
    '',
    'Test-split rows are for evaluation only: a judge trained on them can no longer be evaluated on them.'
  )
  return lines.join('\n')
}
