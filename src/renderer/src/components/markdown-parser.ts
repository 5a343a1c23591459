// The Markdown parser (remark, GFM, maths, KaTeX: most of the window's code by weight) is its own chunk, loaded on the
// first text that needs it: the first item of a browser-mode page arrives parsed, so opening it waits for none of it.

export type MarkdownParser = typeof import('../../../shared/markdown/pipeline')

let parser: MarkdownParser | undefined
let loading: Promise<MarkdownParser> | undefined
const waiting = new Set<() => void>()

/** Loads the Markdown parser once; resolves when it can parse any text. */
export function loadMarkdownParser(): Promise<MarkdownParser> {
  loading ??= import('../../../shared/markdown/pipeline').then((m) => {
    parser = m
    for (const notify of waiting) notify()
    return m
  })
  return loading
}

/** The parser, if it has arrived. */
export function markdownParser(): MarkdownParser | undefined {
  return parser
}

/** Calls `notify` when the parser arrives (for useSyncExternalStore); returns the unsubscribe. */
export function onMarkdownParser(notify: () => void): () => void {
  waiting.add(notify)
  return () => waiting.delete(notify)
}
