import type { ReactElement } from 'react'
import { Fragment, jsx, jsxs } from 'react/jsx-runtime'
import type { Element, Root, Nodes, Parents } from 'hast'
import { toHtml } from 'hast-util-to-html'
import { toJsxRuntime, type Components } from 'hast-util-to-jsx-runtime'
import { urlAttributes } from 'html-url-attributes'
import { SKIP, visit } from 'unist-util-visit'
import { defaultUrlTransform } from 'react-markdown'

/**
 * React elements from a parsed Markdown tree (hast), by the steps react-markdown takes after its parse, with the
 * options the workbench gives it: raw HTML becomes its text, every URL attribute goes through react-markdown's own
 * check (`javascript:` and other unsafe schemes are emptied), then hast-util-to-jsx-runtime with react-markdown's
 * options. Kept apart from the parser so a tree parsed elsewhere renders without loading it; a unit test holds the
 * output to react-markdown's. The tree is changed in place.
 *
 * One difference, in how and not in what: the inside of each formula (KaTeX's markup, after the checks above) is
 * handed to the browser as HTML. A formula is dozens of nested spans with inline styles, most of a mathematical
 * text's elements; the browser's parser builds them many times faster than React element by element, and nothing in
 * them is interactive.
 */
export function hastToReact(tree: Root, components: Partial<Components>): ReactElement {
  visit(tree, (node: Nodes, index: number | undefined, parent: Parents | undefined) => {
    if (node.type === 'raw' && parent && typeof index === 'number') {
      parent.children[index] = { type: 'text', value: node.value }
      return index
    }
    if (node.type === 'element') {
      for (const key in urlAttributes) {
        if (!Object.hasOwn(urlAttributes, key) || !Object.hasOwn(node.properties, key)) continue
        const test = urlAttributes[key]
        if (test === null || test === undefined || test.includes(node.tagName)) {
          node.properties[key] = defaultUrlTransform(String(node.properties[key] || ''))
        }
      }
    }
    return undefined
  })
  visit(tree, 'element', (node: Element) => {
    if (!isFormula(node)) return undefined
    node.properties = { ...node.properties, dangerouslySetInnerHTML: { __html: toHtml(node.children) } } as unknown as Element['properties']
    node.children = []
    return SKIP
  })
  return toJsxRuntime(tree, { Fragment, components, ignoreInvalidStyle: true, jsx, jsxs, passKeys: true, passNode: true })
}

/** KaTeX's element for one formula (inside `.katex-display` for display maths). */
function isFormula(node: Element): boolean {
  const names = node.properties.className
  return Array.isArray(names) && names.includes('katex')
}
