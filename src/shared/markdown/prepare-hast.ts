import type { Element, Nodes, Parents, Root } from 'hast'
import { toHtml } from 'hast-util-to-html'
import { urlAttributes } from 'html-url-attributes'
import { defaultUrlTransform } from 'react-markdown'
import { SKIP, visit } from 'unist-util-visit'

/**
 * The steps react-markdown takes on a parsed tree before turning it into elements, with the options the workbench
 * gives it: raw HTML becomes its text, and every URL attribute goes through react-markdown's own check
 * (`javascript:` and other unsafe schemes are emptied). Then, one difference in how and not in what: the inside of
 * each formula (KaTeX's markup, already checked) is kept as HTML on the formula's element, for the browser to build
 * (a formula is dozens of nested spans with inline styles, most of a mathematical text's elements; the browser's
 * parser builds them many times faster than React element by element, and nothing in them is interactive).
 *
 * Runs where the tree is parsed: in the window, or in the browser-mode server for the texts a page brings, so the
 * page carries each formula as one string and the window walks only the rest. The tree is changed in place, and a
 * tree prepared once is unchanged by a second preparation.
 */
export function prepareHast(tree: Root): Root {
  visit(tree, (node: Nodes, index: number | undefined, parent: Parents | undefined) => {
    if (node.type === 'raw' && parent && typeof index === 'number') {
      parent.children[index] = { type: 'text', value: node.value }
      return index
    }
    if (node.type === 'element') checkUrls(node)
    return undefined
  })
  // After the checks above, so what becomes HTML was checked element by element.
  visit(tree, 'element', (node: Element) => {
    if (!isFormula(node)) return undefined
    // A formula prepared before keeps its HTML (it has no children left to make it from).
    if (!Object.hasOwn(node.properties, FORMULA_HTML)) {
      node.properties = { ...node.properties, [FORMULA_HTML]: { __html: toHtml(node.children) } } as unknown as Element['properties']
      node.children = []
    }
    return SKIP
  })
  return tree
}

/** The React property the formula's HTML is kept under, which hast-util-to-jsx-runtime passes on as it is. */
const FORMULA_HTML = 'dangerouslySetInnerHTML'

/** react-markdown's URL check on one element's URL attributes. */
function checkUrls(node: Element): void {
  for (const key in urlAttributes) {
    if (!Object.hasOwn(urlAttributes, key) || !Object.hasOwn(node.properties, key)) continue
    const test = urlAttributes[key]
    if (test === null || test === undefined || test.includes(node.tagName)) {
      node.properties[key] = defaultUrlTransform(String(node.properties[key] || ''))
    }
  }
}

/** KaTeX's element for one formula (inside `.katex-display` for display maths). */
function isFormula(node: Element): boolean {
  const names = node.properties.className
  return Array.isArray(names) && names.includes('katex')
}
