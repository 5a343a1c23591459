import type { ReactElement } from 'react'
import { Fragment, jsx, jsxs } from 'react/jsx-runtime'
import type { Root } from 'hast'
import { toJsxRuntime, type Components } from 'hast-util-to-jsx-runtime'
import { prepareHast } from '../../../shared/markdown/prepare-hast'

/**
 * React elements from a parsed Markdown tree (hast), by the steps react-markdown takes after its parse (see
 * prepareHast: raw HTML as text, URL checks; each formula's inside kept as HTML), then hast-util-to-jsx-runtime
 * with react-markdown's options. Kept apart from the parser so a tree parsed elsewhere renders without loading it; a
 * unit test holds the output to react-markdown's. A tree the server prepared is only walked, not changed; the tree is
 * consumed.
 */
export function hastToReact(tree: Root, components: Partial<Components>): ReactElement {
  return toJsxRuntime(prepareHast(tree), { Fragment, components, ignoreInvalidStyle: true, jsx, jsxs, passKeys: true, passNode: true })
}
