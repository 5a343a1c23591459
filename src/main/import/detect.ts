import Papa from 'papaparse'
import type { ImportFormat } from './types'

/**
 * Guesses the format from the field names of the first record (a CSV header, a JSONL line, or the keys visible
 * in the first lines of a JSON file) and, where fields are shared, from the file name. Null when unsure: the
 * caller then asks the user.
 */
export function detectFormat(path: string, firstLines: string[]): ImportFormat | null {
  const name = path.toLowerCase().split(/[\\/]/).pop() ?? ''
  const keys = fieldNames(name, firstLines)
  const has = (...ks: string[]) => ks.every((k) => keys.has(k))
  const any = (...ks: string[]) => ks.some((k) => keys.has(k))
  if (has('item', 'instrument') || has('instrument', 'judgement')) return 'labels'
  if (has('pair_id') && any('a', 'b')) return 'pairs'
  if (has('paper_id', 'citations') || has('paper_id', 'cohort')) return 'citation-pairs'
  if (has('paper', 'preprint') || has('paper', 'candidates') || has('paper_abstract', 'preprint_abstract')) return 'preprints'
  if (has('reference_a', 'reference_b') || has('finding_a', 'finding_b')) return 'references'
  if (any('stages', 'candidates', 'selected', 'runs', 'lens')) return 'omega-point'
  if (has('set_id', 'hypotheses')) return 'hypotheses'
  if (has('problem', 'answer')) return 'frontierscience'
  if (has('hash_A', 'hash_B') || (has('idea') && any('idea_model', 'critic_model', 'parsed_scores', 'parsed_score', 'keywords'))) return 'liveideabench'
  if (has('question_id')) return 'questions'
  if (has('task_id', 'background', 'question') && any('finding', 'key_points', 'suitable')) return 'tasks'
  if (any('abstract', 'AbstractText') && any('journal', 'pmid', 'journal_title') && !any('background', 'finding')) return 'abstracts'
  if (name.includes('frontierscience')) return 'frontierscience'
  if (name.includes('liveideabench')) return 'liveideabench'
  return null
}

function fieldNames(name: string, firstLines: string[]): Set<string> {
  const text = firstLines.join('\n').replace(/^\uFEFF/, '')
  const start = text.trimStart()
  if (name.endsWith('.csv') || name.endsWith('.tsv') || !(start.startsWith('{') || start.startsWith('['))) {
    const header = Papa.parse<string[]>(firstLines[0]?.replace(/^\uFEFF/, '') ?? '', name.endsWith('.tsv') ? { delimiter: '\t' } : {}).data[0] ?? []
    return new Set(header.map((h) => h.trim()).filter(Boolean))
  }
  // JSON or JSONL: the keys of the first complete line if it parses, else every key-looking token seen.
  const first = firstLines.find((l) => l.trim())
  if (first) {
    try {
      const v = JSON.parse(first) as unknown
      if (v && typeof v === 'object' && !Array.isArray(v)) return new Set(Object.keys(v))
    } catch {
      // A pretty-printed JSON file: fall through to the token scan.
    }
  }
  return new Set([...start.matchAll(/"([A-Za-z_][A-Za-z0-9_]*)"\s*:/g)].map((m) => m[1]!))
}
