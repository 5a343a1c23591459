import { parentPort } from 'node:worker_threads'
import { sendableHast } from '../../shared/markdown/pipeline'

/**
 * The thread that parses a served page's first item (Markdown and KaTeX, with the window's own pipeline), so a long
 * or formula-heavy text never holds up the server's other requests. It answers each request in turn; the server ends
 * it when one takes longer than the page may wait.
 */

export interface ParseRequest {
  id: number
  texts: Array<{ text: string; sourceOffset: number }>
  /** The most the trees may take as JSON in the page; larger ones are not sent back. */
  maxBytes: number
}

/**
 * `started` when the worker takes a request up (its time budget runs from then), then its trees, `tooLarge` when
 * they would take more than the page allows, or its error.
 */
export type ParseAnswer =
  | { id: number; started: true }
  | { id: number; hasts: unknown[] }
  | { id: number; tooLarge: true }
  | { id: number; error: string }

parentPort?.on('message', (m: ParseRequest) => {
  parentPort!.postMessage({ id: m.id, started: true } satisfies ParseAnswer)
  let answer: ParseAnswer
  try {
    const hasts = m.texts.map((t) => sendableHast(t.text, t.sourceOffset))
    // Measured here, so the server neither copies nor writes into a page megabytes of formulas' HTML.
    answer = JSON.stringify(hasts).length > m.maxBytes ? { id: m.id, tooLarge: true } : { id: m.id, hasts }
  } catch (e) {
    answer = { id: m.id, error: (e as Error).message }
  }
  parentPort!.postMessage(answer)
})
