import remarkMath from 'remark-math'
import remarkParse from 'remark-parse'
import { unified } from 'unified'

/** An equation of a Markdown text: its LaTeX and where that LaTeX sits in the text (delimiters excluded). */
export interface Equation {
  index: number
  display: boolean
  tex: string
  start: number
  end: number
}

interface MdNode {
  type: string
  value?: string
  children?: MdNode[]
  position?: { start: { offset?: number }; end: { offset?: number } }
}

const parser = unified().use(remarkParse).use(remarkMath)

/** Every equation of the text in reading order, found in the Markdown AST (code spans and blocks are not maths). */
export function findEquations(markdown: string): Equation[] {
  const tree = parser.parse(markdown) as MdNode
  const found: Equation[] = []
  const walk = (node: MdNode) => {
    if ((node.type === 'math' || node.type === 'inlineMath') && node.value && node.position) {
      const from = node.position.start.offset ?? 0
      const to = node.position.end.offset ?? markdown.length
      // The node's value is its LaTeX without delimiters; locate it inside the node's own span.
      const at = markdown.indexOf(node.value, from)
      if (at >= 0 && at + node.value.length <= to) {
        found.push({ index: found.length, display: node.type === 'math', tex: node.value, start: at, end: at + node.value.length })
      }
      return
    }
    for (const child of node.children ?? []) walk(child)
  }
  walk(tree)
  return found
}
