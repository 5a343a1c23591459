import type { Migration } from './migration'

// Fields an import kept from its file used to sit beside the fields Assay reads, where one of the file's own (a
// hypothesis set's `task`) could hide one Assay attaches. They move under `$extra`, unchanged; imports write them
// there from now on (import/extra-fields.ts). Only imported items move: generated sets carry Assay's own fields.

/** The fields Assay knew per kind when this migration was written (a migration is never edited afterwards). */
const KNOWN: Record<string, ReadonlyArray<string>> = {
  'proposal-pair': ['pair_id', 'topic', 'cohort', 'cutoff_date', 'a', 'b', 'label', 'label_source', 'probe', 'origin_label', 'literature_review'],
  'hypothesis-set': ['set_id', 'task_id', 'generator', 'company', 'scheme', 'hypotheses', 'reference', 'candidates'],
  'rediscovery-task': ['task_id', 'background', 'question', 'subject', 'finding', 'key_points', 'reference_b'],
  'fs-problem': ['track', 'problem', 'answer', 'rubric', 'subject', 'task_group_id', 'response', 'responder'],
  idea: ['idea', 'keywords', 'idea_model', 'critic_model', 'scores', 'idea_hash'],
  'idea-pair': ['idea_a', 'idea_b', 'keywords', 'hash_a', 'hash_b', 'score'],
  'preprint-pair': ['paper', 'preprint'],
  'reference-pair': ['task_id', 'abstract', 'reference_a', 'reference_b'],
  'research-question': ['question_id', 'question', 'background', 'reference_answer']
}

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`

/** A json_each value as JSON again (json_each gives text unquoted and true/false as 1/0). */
const VALUE = `CASE type WHEN 'true' THEN json('true') WHEN 'false' THEN json('false') WHEN 'null' THEN json('null') WHEN 'object' THEN json(value) WHEN 'array' THEN json(value) ELSE value END`

function moveUnknown(kind: string, known: ReadonlyArray<string>): string {
  // `$view` is a packet item's whole payload; `$extra` is already the namespace.
  const keep = [...known, '$view', '$extra'].map(quote).join(', ')
  return `
UPDATE items SET payload = json_set(
    (SELECT json_group_object(key, ${VALUE}) FROM json_each(items.payload) WHERE key IN (${keep})),
    '$."$extra"',
    (SELECT json_group_object(key, ${VALUE}) FROM json_each(items.payload) WHERE key NOT IN (${keep})))
  WHERE kind = ${quote(kind)} AND import_id IS NOT NULL
    AND EXISTS (SELECT 1 FROM json_each(items.payload) WHERE key NOT IN (${keep}));`
}

export const v004: Migration = {
  version: 4,
  name: 'namespaced extra fields',
  sql: Object.entries(KNOWN)
    .map(([kind, known]) => moveUnknown(kind, known))
    .join('\n')
}
