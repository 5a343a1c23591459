import { seededUnit } from '../protocol/hash'

/**
 * Few-shot prompting from expert labels: k labelled dev examples chosen stratified by label (seeded, so the same
 * seed always picks the same examples), written into a new version of the instrument's prompt ahead of the task.
 */

export interface FewShotCandidate {
  id: string
  /** The label the example carries (its stratum), e.g. the winning side of a pair. */
  label: string
}

/**
 * Takes examples from each label in turn (labels in sorted order, items within a label in seeded order) until k are
 * chosen, so every label is represented as evenly as k allows. The result is shown in a seeded order too, so the
 * prompt does not list every example of one label first.
 */
export function chooseFewShotExamples<C extends FewShotCandidate>(candidates: readonly C[], k: number, seed: string): C[] {
  if (!(Number.isInteger(k) && k >= 1)) throw new RangeError(`k must be a positive integer (${k})`)
  const strata = new Map<string, C[]>()
  for (const c of candidates) strata.set(c.label, [...(strata.get(c.label) ?? []), c])
  const ordered = [...strata.keys()].sort().map((label) => [...(strata.get(label) as C[])].sort((a, b) => seededUnit(seed, `pick:${a.id}`) - seededUnit(seed, `pick:${b.id}`)))
  const chosen: C[] = []
  for (let round = 0; chosen.length < k && ordered.some((s) => s.length > round); round++) {
    for (const stratum of ordered) if (stratum[round] && chosen.length < k) chosen.push(stratum[round] as C)
  }
  return chosen.sort((a, b) => seededUnit(seed, `show:${a.id}`) - seededUnit(seed, `show:${b.id}`))
}

export interface FewShotExample {
  /** The values the template fills for the example's item, by placeholder name. */
  values: Readonly<Record<string, string>>
  /** The expert label in the template's answer format. */
  answer: string
}

/**
 * The user part of the few-shot template: the examples (each item's values under their placeholder names and the
 * experts' answer), then the original prompt unchanged, its placeholders written `{{name}}`.
 */
export function fewShotUserText(baseUser: string, names: readonly string[], examples: readonly FewShotExample[]): string {
  const blocks = examples.map((e, i) => {
    const fields = names.filter((n) => e.values[n] !== undefined).map((n) => `--- ${n} ---\n${e.values[n] as string}`)
    return [`Example ${i + 1} of ${examples.length}, answered by domain experts:`, ...fields, '--- expert answer ---', e.answer].join('\n')
  })
  return [
    'Before the task, here are examples of the same task with the answers domain experts gave. Judge the task below on its own merits; the examples show what the experts looked for and the answer format.',
    '',
    blocks.join('\n\n'),
    '',
    '=== THE TASK ===',
    '',
    baseUser
  ].join('\n')
}
