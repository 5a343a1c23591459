/**
 * A Hugging Face dataset card (README.md with YAML front matter) for a folder of JSONL files, one per split, so the
 * folder loads with `datasets.load_dataset("<folder>")` as it is: `configs` names each split's file.
 */
export interface HfCardInput {
  title: string
  license: string
  taskCategories: string[]
  /** Split name → file path relative to the folder, and its row count. */
  splits: Array<{ name: string; path: string; rows: number }>
  tags: string[]
  /** Markdown body below the front matter. */
  body: string
}

export function sizeCategory(rows: number): string {
  if (rows < 1_000) return 'n<1K'
  if (rows < 10_000) return '1K<n<10K'
  if (rows < 100_000) return '10K<n<100K'
  if (rows < 1_000_000) return '100K<n<1M'
  return '1M<n<10M'
}

// A JSON string is a YAML double-quoted scalar: newlines and quotes inside stay inside the value.
const yamlString = (s: string) => JSON.stringify(s)
/** A license id as Hugging Face writes it (`mit`, `cc-by-4.0`, `other`) stays bare; anything else is quoted. */
const yamlScalar = (s: string) => (/^[A-Za-z0-9][A-Za-z0-9.+_-]*$/.test(s) ? s : yamlString(s))

export function hfDatasetCard(input: HfCardInput): string {
  const total = input.splits.reduce((n, s) => n + s.rows, 0)
  const lines = [
    '---',
    `license: ${yamlScalar(input.license)}`,
    'task_categories:',
    ...input.taskCategories.map((t) => `- ${yamlScalar(t)}`),
    'language:',
    '- en',
    'tags:',
    ...input.tags.map((t) => `- ${yamlScalar(t)}`),
    'size_categories:',
    `- ${sizeCategory(total)}`,
    'configs:',
    '- config_name: default',
    '  data_files:',
    ...input.splits.flatMap((s) => [`  - split: ${s.name}`, `    path: ${yamlString(s.path)}`]),
    '---',
    '',
    `# ${input.title}`,
    '',
    input.body.trimEnd(),
    ''
  ]
  return lines.join('\n')
}
