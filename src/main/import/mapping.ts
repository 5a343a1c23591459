import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { readRecords } from './read-records'
import { FORMAT_ARRAY_KEYS } from './formats'
import { GENERIC_ROLES, type GenericMapping } from '../../shared/items/generic-mapping'
import { headerOf } from './formats/generic'
import type { ImportFormat } from './types'

/** What each known field of a format becomes; any other field is kept unchanged under the item's `$extra`. */
const FIELD_ROLES: Record<ImportFormat, Record<string, string>> = {
  pairs: {
    pair_id: 'item id',
    a: 'proposal A (markdown or path, origin, generator, citations)',
    b: 'proposal B (markdown or path, origin, generator, citations)',
    label: 'reference label (canonical or by origin)',
    topic: 'topic',
    cohort: 'cohort',
    cutoff_date: 'cutoff date',
    probe: 'probe kind (curator only)'
  },
  tasks: {
    task_id: 'item id',
    background: 'background (shown)',
    question: 'question (shown)',
    subject: 'subject',
    finding: 'reference finding (hidden from generators)',
    key_points: 'reference key points',
    reference_b: 'second reference'
  },
  hypotheses: {
    set_id: 'item id',
    task_id: 'task (must exist)',
    generator: 'generator (hidden from annotators)',
    company: 'company (hidden; panel rule)',
    scheme: 'scheme',
    hypotheses: 'hypotheses (statement, mechanism, prediction, domain_category)'
  },
  questions: { question_id: 'item id', question: 'question', background: 'background', reference_answer: 'reference answer' },
  frontierscience: {
    problem: 'problem',
    answer: 'reference answer (olympiad) or rubric (research; parsed into points)',
    subject: 'subject',
    task_group_id: 'item id (duplicates get #2, #3…)',
    track: 'track',
    category: 'track',
    response: 'response to grade'
  },
  liveideabench: {
    idea: 'idea text',
    keywords: 'keywords',
    idea_model: 'idea model (hidden from annotators)',
    critic_model: 'critic model',
    scores: "critic's scores (JSON or Python literal)"
  },
  'omega-point': { tasks: 'tasks', runs: 'runs', task_id: 'task', hypotheses: 'hypothesis candidates', selected: 'selected ids' },
  labels: {
    item: 'item id',
    unit: 'unit (e.g. hypothesis id)',
    instrument: 'instrument',
    source: 'annotator or judge name',
    source_kind: 'human | model | final',
    judgement: "answer, validated against the instrument's schema"
  },
  'citation-pairs': { paper_id: 'paper id', cohort: 'cohort', citations: 'citation count', markdown: 'proposal text', path: 'proposal file', topic: 'topic' },
  preprints: {
    pair_id: 'item id',
    paper: 'published paper (title, authors, abstract)',
    preprint: 'candidate preprint (title, authors, abstract)',
    candidates: 'candidate preprints, one item each',
    same_study: 'reference answer (hidden; scores the check)',
    paper_id: 'paper id',
    paper_title: 'paper title',
    paper_authors: 'paper authors',
    paper_abstract: 'paper abstract',
    preprint_id: 'preprint id',
    preprint_title: 'preprint title',
    preprint_authors: 'preprint authors',
    preprint_abstract: 'preprint abstract'
  },
  abstracts: { pmid: 'item id', paper_id: 'item id', title: 'paper title', journal: 'journal', abstract: 'abstract', authors: 'authors' },
  references: {
    pair_id: 'item id',
    task_id: 'task',
    reference_a: "reader A's finding and key points",
    reference_b: "reader B's finding and key points",
    finding_a: "reader A's finding",
    key_points_a: "reader A's key points",
    finding_b: "reader B's finding",
    key_points_b: "reader B's key points",
    abstract: 'abstract (not shown)'
  },
  // The generic format's columns mean what its mapping says (describeMapping).
  generic: {}
}

export interface MappingRow {
  field: string
  to: string
}

/** The fields of the file's first record and what the importer does with each, for the import dialog. */
export function describeMapping(format: ImportFormat, path: string, generic?: GenericMapping): MappingRow[] {
  const full = resolve(path)
  const read = readRecords(path, full, readFileSync(full, 'utf8'), FORMAT_ARRAY_KEYS[format])
  if (format === 'generic') {
    // Every column of the file (the import screen offers them for the mapping), with its role if one names it.
    const roleOf = new Map(Object.entries(generic?.columns ?? {}).map(([role, column]) => [column, role]))
    const roles = generic ? new Map(GENERIC_ROLES[generic.as].map((r) => [r.role, r.to])) : new Map<string, string>()
    return [...headerOf(read).names].map((field) => {
      const role = roleOf.get(field)
      return { field, to: role ? `${role}: ${roles.get(role) ?? 'not a role of this shape'}` : 'kept unchanged under $extra' }
    })
  }
  const first = read.records[0]?.value
  if (!first || typeof first !== 'object' || Array.isArray(first)) return []
  const roles = FIELD_ROLES[format]
  return Object.keys(first).map((field) => ({
    field,
    // An own key only: a column named like an Object method (`constructor`) has no role.
    to: (Object.hasOwn(roles, field) ? roles[field] : undefined) ?? (format === 'labels' ? 'judgement field (CSV column), validated' : 'kept unchanged under $extra')
  }))
}
