import type { ItemKind } from './kinds'

/** Which import (or run) makes items of each kind, for errors that find none. */
export const IMPORTS_OF_KIND: Record<ItemKind, string> = {
  'proposal-pair': 'import them with `assay import <file> pairs <path>` (or `citation-pairs`)',
  'hypothesis-set': 'import them with `assay import <file> hypotheses <path>` (or `omega-point`), or generate them with `assay judge <file> --instrument generation`',
  'rediscovery-task': 'import them with `assay import <file> tasks <path>`, or compose them from papers with `assay judge <file> --instrument generation --generate tasks --scheme single`',
  'fs-problem': 'import them with `assay import <file> frontierscience <path>`',
  idea: 'import them with `assay import <file> liveideabench <path>` (or your own with `generic <path> --as texts --map id=…,text=…`), or generate them with `--generate ideas`',
  'idea-pair': 'import them with `assay import <file> liveideabench <path>` (similarity records)',
  'preprint-pair': 'import them with `assay import <file> preprints <path>` (papers with their candidate preprint records)',
  'reference-pair': 'import them with `assay import <file> references <path>` (two readers’ findings of each paper)',
  'research-question': 'import them with `assay import <file> questions <path>`',
  paper: 'import them with `assay import <file> abstracts <path>` (PubMed-style title, journal, abstract), or `preprints`'
}

/** "needs <kind> items; <how to make them>", with the project file named in the command. */
export function kindNeeded(kinds: readonly ItemKind[], file: string): string {
  const word = /^[\w.@/-]+$/.test(file) ? file : `'${file.replace(/'/g, `'\\''`)}'`
  return kinds.map((k) => `${k} items: ${IMPORTS_OF_KIND[k].replaceAll('<file>', word)}`).join('; or ')
}
