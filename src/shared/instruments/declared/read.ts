import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml'
import type { ErrorLocation } from '../../errors'
import { declarationSchema, type Declaration } from './declaration'

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
  if (parsed.success) return { ok: true, declaration: parsed.data }
  const root = doc.contents as Node | null
  return {
    ok: false,
    problems: parsed.error.issues.map((i) => {
      const node = nodeAt(root, i.path)
      const line = node?.range ? lineCounter.linePos(node.range[0]).line : 1
      const field = i.path.map(String).join('.')
      return { file, line, ...(field ? { field } : {}), message: i.message }
    })
  }
}
