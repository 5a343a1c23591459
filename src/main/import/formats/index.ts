import type { ReadResult } from '../read-records'
import type { ImportContext, ImportFormat, ParsedImport } from '../types'
import { ABSTRACT_ARRAY_KEYS, parseAbstracts } from './abstracts'
import { parseCitationPairs } from './citation-pairs'
import { parseFrontierScience } from './frontierscience'
import { HYPOTHESIS_ARRAY_KEYS, parseHypotheses } from './hypotheses'
import { parseLabels } from './labels'
import { parseLiveIdeaBench } from './liveideabench'
import { OMEGA_POINT_ARRAY_KEYS, parseOmegaPoint } from './omega-point'
import { PAIR_ARRAY_KEYS, parsePairs } from './pairs'
import { PREPRINT_ARRAY_KEYS, parsePreprints } from './preprints'
import { parseQuestions } from './questions'
import { parseReferences, REFERENCE_ARRAY_KEYS } from './references'
import { parseTasks } from './tasks'
import { parseGeneric } from './generic'

/** Keys under which a JSON object may hold its rows, per format (a manifest with metadata beside the rows). */
export const FORMAT_ARRAY_KEYS: Record<ImportFormat, ReadonlyArray<string>> = {
  pairs: PAIR_ARRAY_KEYS,
  tasks: ['tasks', 'items', 'data'],
  hypotheses: HYPOTHESIS_ARRAY_KEYS,
  frontierscience: ['problems', 'items', 'data'],
  questions: ['questions', 'items', 'data'],
  liveideabench: ['results', 'ideas', 'pairs', 'items', 'data'],
  'omega-point': OMEGA_POINT_ARRAY_KEYS,
  labels: ['labels', 'annotations', 'items', 'data'],
  'citation-pairs': ['papers', 'items', 'data'],
  preprints: PREPRINT_ARRAY_KEYS,
  abstracts: ABSTRACT_ARRAY_KEYS,
  references: REFERENCE_ARRAY_KEYS,
  generic: ['items', 'rows', 'data']
}

export async function parseFormat(format: ImportFormat, ctx: ImportContext, read: ReadResult): Promise<ParsedImport> {
  switch (format) {
    case 'pairs':
      return parsePairs(ctx, read.records, read.root)
    case 'tasks':
      return parseTasks(ctx, read.records)
    case 'hypotheses':
      return parseHypotheses(ctx, read.records, read.root)
    case 'questions':
      return parseQuestions(ctx, read.records)
    case 'frontierscience':
      return parseFrontierScience(ctx, read.records)
    case 'liveideabench':
      return parseLiveIdeaBench(ctx, read.records)
    case 'omega-point':
      return parseOmegaPoint(ctx, read.records, read.root)
    case 'labels':
      return parseLabels(ctx, read)
    case 'citation-pairs':
      return parseCitationPairs(ctx, read.records)
    case 'preprints':
      return parsePreprints(ctx, read.records)
    case 'abstracts':
      return parseAbstracts(ctx, read.records)
    case 'references':
      return parseReferences(ctx, read.records)
    case 'generic':
      return parseGeneric(ctx, read)
  }
}
