// The import graph of src/main and src/shared, read with the TypeScript compiler's parser (no type-check needed).
// An edge is a relative import between two source files. It is "type-only" when nothing of it exists at run time
// (`import type`, `export type`, or every named binding marked `type`); everything else, including a dynamic
// `import()`, is a runtime edge: a lazy import does not remove a dependency, it only hides it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'

export interface ImportEdge {
  from: string
  to: string
  typeOnly: boolean
}

export interface ImportGraph {
  root: string
  files: string[]
  edges: ImportEdge[]
}

function sourceFiles(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path))
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path)
  }
  return out
}

function resolveRelative(fromFile: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromFile), specifier)
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]
  if (/\.js$/.test(base)) candidates.unshift(base.replace(/\.js$/, '.ts'))
  return candidates.find((path) => /\.tsx?$/.test(path) && existsSync(path) && statSync(path).isFile())
}

function importsOf(path: string): { specifier: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, false)
  const found: { specifier: string; typeOnly: boolean }[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause
      const named = clause?.namedBindings
      const allNamedTypes = !!named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly)
      const typeOnly = !!clause && (clause.isTypeOnly || (!clause.name && allNamedTypes))
      found.push({ specifier: node.moduleSpecifier.text, typeOnly })
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause
      const allNamedTypes = !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly)
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly || allNamedTypes })
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments
      if (arg && ts.isStringLiteralLike(arg)) found.push({ specifier: arg.text, typeOnly: false })
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** The graph of the files under `dirs` (relative to `root`), with paths relative to `root`. */
export function importGraph(root: string, dirs: string[]): ImportGraph {
  const files = dirs.flatMap((dir) => sourceFiles(join(root, dir))).sort()
  const inside = new Set(files)
  const edges: ImportEdge[] = []
  for (const file of files) {
    const seen = new Map<string, boolean>()
    for (const { specifier, typeOnly } of importsOf(file)) {
      if (!specifier.startsWith('.')) continue
      const target = resolveRelative(file, specifier)
      if (!target || !inside.has(target)) continue
      // One edge per pair of files: runtime if any of its imports is.
      seen.set(target, (seen.get(target) ?? true) && typeOnly)
    }
    for (const [target, typeOnly] of seen) edges.push({ from: relative(root, file), to: relative(root, target), typeOnly })
  }
  return { root, files: files.map((file) => relative(root, file)), edges }
}

/** Every cycle of the graph's edges, one per strongly connected component of more than one file (or a self-import):
 * the shortest circle through the component's first file, enough to name the problem. */
export function cycles(files: string[], edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>()
  for (const file of files) next.set(file, [])
  for (const edge of edges) next.get(edge.from)?.push(edge.to)
  // Tarjan's strongly connected components.
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const components: string[][] = []
  const strong = (v: string): void => {
    index.set(v, counter)
    low.set(v, counter)
    counter += 1
    stack.push(v)
    onStack.add(v)
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        strong(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      const selfLoop = component.length === 1 && (next.get(v) ?? []).includes(v)
      if (component.length > 1 || selfLoop) components.push(component.sort())
    }
  }
  for (const file of files) if (!index.has(file)) strong(file)
  return components.map((component) => shortestCircle(component[0]!, new Set(component), next))
}

function shortestCircle(start: string, within: Set<string>, next: Map<string, string[]>): string[] {
  const previous = new Map<string, string>()
  const queue = [start]
  const seen = new Set([start])
  while (queue.length > 0) {
    const v = queue.shift()!
    for (const w of next.get(v) ?? []) {
      if (!within.has(w)) continue
      if (w === start) {
        const path = [v]
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!)
        return [...path, start]
      }
      if (!seen.has(w)) {
        seen.add(w)
        previous.set(w, v)
        queue.push(w)
      }
    }
  }
  return [start, start]
}

/** The room of a file of src/main: its folder directly under src/main (`src/main/store`), or the file itself for a
 * file at the top of src/main (`src/main/events.ts`). */
export function roomOf(file: string): string {
  const parts = file.split('/')
  return parts.length > 3 ? parts.slice(0, 3).join('/') : file
}

/** The graph of rooms: an edge wherever a file of one room imports a file of another (runtime if any such import is). */
export function roomGraph(graph: ImportGraph, within: string): { rooms: string[]; edges: ImportEdge[] } {
  const files = graph.files.filter((file) => file.startsWith(`${within}/`))
  const rooms = [...new Set(files.map(roomOf))].sort()
  const byPair = new Map<string, ImportEdge>()
  for (const edge of graph.edges) {
    if (!edge.from.startsWith(`${within}/`) || !edge.to.startsWith(`${within}/`)) continue
    const from = roomOf(edge.from)
    const to = roomOf(edge.to)
    if (from === to) continue
    const key = `${from} ${to}`
    const known = byPair.get(key)
    byPair.set(key, { from, to, typeOnly: (known?.typeOnly ?? true) && edge.typeOnly })
  }
  return { rooms, edges: [...byPair.values()] }
}
