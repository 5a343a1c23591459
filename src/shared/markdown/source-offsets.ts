// Tree transforms for the one Markdown renderer (remark → rehype → KaTeX). They keep the parser's source offsets
// on what is rendered, so a selection on screen maps back to the exact Markdown/LaTeX it came from.

import { spanHolding, type DelimitedSpan } from './latex-delimiters'

/** The parts of unist/mdast/hast nodes these transforms read and write. */
interface Point {
  offset?: number
}
interface TreeNode {
  type: string
  value?: string
  tagName?: string
  properties?: Record<string, unknown>
  children?: TreeNode[]
  position?: { start: Point; end: Point }
  data?: Record<string, unknown>
}

function classesOf(node: TreeNode): string[] {
  const c = node.properties?.className
  return Array.isArray(c) ? c.map(String) : typeof c === 'string' ? c.split(/\s+/) : []
}

/** Whether the span [start, end) of `source` is alone on its line (spaces aside). */
function aloneOnLine(source: string, start: number, end: number): boolean {
  const before = source.slice(source.lastIndexOf('\n', start - 1) + 1, start)
  const lineEnd = source.indexOf('\n', end)
  const after = source.slice(end, lineEnd < 0 ? source.length : lineEnd)
  return !before.trim() && !after.trim()
}

/** The formulas a text wrote with LaTeX's delimiters (see latex-delimiters), kept on the parsed file. */
interface ParsedFile {
  value?: unknown
  data?: { delimited?: ReadonlyArray<DelimitedSpan> }
}

/**
 * Writers put display maths on one line (`$$ x^2 $$`), which remark-math reads as inline maths. Such `$$…$$` alone
 * on its line is shown as display maths (a paragraph of nothing else becomes a block); its source positions stay
 * those of the original text. A formula written `\[…\]` is display maths wherever it stands, one written `\(…\)`
 * inline maths even alone on its line.
 */
export function remarkDisplayMathLines() {
  return (tree: TreeNode, file: ParsedFile) => {
    const source = typeof file.value === 'string' ? file.value : String(file.value ?? '')
    const delimited = file.data?.delimited ?? []
    const isDisplay = (k: TreeNode): boolean => {
      const s = k.position?.start.offset
      const e = k.position?.end.offset
      if (k.type !== 'inlineMath' || s === undefined || e === undefined) return false
      const written = delimited.length ? spanHolding(delimited, s, e) : undefined
      if (written) return written.display
      return source.startsWith('$$', s) && aloneOnLine(source, s, e)
    }
    // Wherever it stands: display maths in a heading or a table cell would otherwise be read inline, where KaTeX
    // refuses `\begin{equation}`.
    const walk = (node: TreeNode) => {
      const kids = node.children ?? []
      const lines = kids.filter(isDisplay)
      for (const math of lines) (math.data ??= {}).hProperties = { className: ['language-math', 'math-display'] }
      if (node.type === 'paragraph' && lines.length === 1 && kids.every((k) => k === lines[0] || (k.type === 'text' && !k.value?.trim()))) {
        node.data = { ...node.data, hName: 'div', hProperties: { className: ['math-line'] } }
      }
      kids.forEach(walk)
    }
    walk(tree)
  }
}

/**
 * Carries source offsets into the rendered tree, before KaTeX replaces maths: every text run becomes a
 * `<span data-src-start data-src-end>`, and every formula is wrapped whole in `.md-math` with the offsets of its
 * source including the dollar signs (a formula is quoted whole or not at all). `base` is where the rendered text
 * starts in the text quotes are taken from.
 */
export function rehypeSourceOffsets(options: { base?: number } = {}) {
  const base = options.base ?? 0
  let delimited: ReadonlyArray<DelimitedSpan> = []
  const offsets = (node: TreeNode): { dataSrcStart: number; dataSrcEnd: number } | null => {
    const s = node.position?.start.offset
    const e = node.position?.end.offset
    return s === undefined || e === undefined ? null : { dataSrcStart: base + s, dataSrcEnd: base + e }
  }
  /** A formula's offsets: those of its source as written, `\(…\)` delimiters included. */
  const mathOffsets = (node: TreeNode): { dataSrcStart: number; dataSrcEnd: number } | null => {
    const at = offsets(node)
    if (!at || !delimited.length) return at
    const written = spanHolding(delimited, at.dataSrcStart - base, at.dataSrcEnd - base)
    return written ? { dataSrcStart: base + written.start, dataSrcEnd: base + written.end } : at
  }
  const mathOf = (node: TreeNode): 'inline' | 'display' | null => {
    if (node.type !== 'element') return null
    if (node.tagName === 'pre') {
      const code = node.children?.find((c) => c.type === 'element' && c.tagName === 'code')
      return code && classesOf(code).includes('math-display') ? 'display' : null
    }
    const classes = classesOf(node)
    if (classes.includes('math-display')) return 'display'
    if (classes.includes('math-inline')) return 'inline'
    return null
  }
  const walk = (node: TreeNode) => {
    const children = node.children
    if (!children) return
    children.forEach((child, i) => {
      const math = mathOf(child)
      if (math) {
        const at = mathOffsets(child)
        children[i] = {
          type: 'element',
          tagName: 'span',
          properties: { className: ['md-math', `md-math-${math}`], ...(at ?? {}) },
          children: [child]
        }
        return
      }
      if (child.type === 'text') {
        const at = offsets(child)
        if (at && child.value) children[i] = { type: 'element', tagName: 'span', properties: { ...at }, children: [child] }
        return
      }
      walk(child)
    })
  }
  return (tree: TreeNode, file: ParsedFile) => {
    delimited = file.data?.delimited ?? []
    walk(tree)
  }
}
