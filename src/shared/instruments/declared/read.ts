import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml'
import type { ErrorLocation } from '../../errors'
import { declarationSchema, type Declaration } from './declaration'
import { ITEM_COMMAND_KEYS } from '../screen-keys'

// Reads a declaration file, JSON or YAML (JSON is read as the YAML it also is), keeping where each value sits so an
// error names the file, the line and the field: `review.yaml:14: fields.2.max: max must be above min`.

export type ReadResult = { ok: true; declaration: Declaration } | { ok: false; problems: ErrorLocation[] }

/** The node at a path, or the nearest one above it that exists (a missing field is reported at its parent). */
function nodeAt(root: Node | null, path: ReadonlyArray<PropertyKey>): Node | null {
  let node: Node | null = root
  for (const key of path) {
    let next: unknown
    if (isMap(node)) next = node.items.find((p) => (p.key as { value?: unknown } | null)?.value === key || String((p.key as { value?: unknown } | null)?.value) === String(key))?.value
    else if (isSeq(node) && typeof key === 'number') next = node.items[key]
    if (!next || typeof next !== 'object' || !('range' in next)) return node
    node = next as Node
  }
  return node
}

export function readDeclaration(text: string, file: string): ReadResult {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true })
  if (doc.errors.length > 0) {
    return {
      ok: false,
      problems: doc.errors.map((e) => ({ file, line: lineCounter.linePos(e.pos[0]).line, message: e.message.split('\n')[0]! }))
    }
  }
  const parsed = declarationSchema.safeParse(doc.toJS())
  const root = doc.contents as Node | null
  const located = (issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): ErrorLocation[] =>
    issues.map((i) => {
      const node = nodeAt(root, i.path)
      const line = node?.range ? lineCounter.linePos(node.range[0]).line : 1
      const field = i.path.map(String).join('.')
      return { file, line, ...(field ? { field } : {}), message: i.message }
    })
  if (!parsed.success) return { ok: false, problems: located(parsed.error.issues) }
  // Checked where a declaration is written, not where a stored one is read: one stored before stays readable.
  const keys = commandKeyIssues(parsed.data)
  return keys.length ? { ok: false, problems: located(keys) } : { ok: true, declaration: parsed.data }
}

const COMMAND_KEYS: ReadonlySet<string> = new Set(ITEM_COMMAND_KEYS)

/** Options whose declared key is a command of the annotation screen, which would shadow the answer there. */
function commandKeyIssues(declaration: Declaration): Array<{ path: PropertyKey[]; message: string }> {
  const lists: Array<{ path: PropertyKey[]; options: ReadonlyArray<{ key?: string | undefined }> }> = []
  declaration.fields.forEach((f, i) => {
    if (f.kind === 'choice' || f.kind === 'multi') lists.push({ path: ['fields', i, 'options'], options: f.options })
    if (f.kind === 'per_side') f.fields.forEach((g, j) => g.kind === 'choice' && lists.push({ path: ['fields', i, 'fields', j, 'options'], options: g.options }))
  })
  return lists.flatMap(({ path, options }) =>
    options.flatMap((o, k) =>
      o.key !== undefined && COMMAND_KEYS.has(o.key)
        ? [{ path: [...path, k, 'key'], message: `the key "${o.key}" is a command of the annotation screen (${[...COMMAND_KEYS].filter((c) => /^[a-z]$/.test(c)).join(', ')} are), so it would never answer: choose another, or leave it out and one is given` }]
        : []
    )
  )
}
