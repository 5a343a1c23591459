import type { Envelope } from '../../shared/contract/client'
import { FIRST_ANSWERS_ID, firstAnswerKey, type FirstPage } from '../../shared/contract/first-answers'
import { viewTextKey } from '../../shared/markdown/view-texts'

// What the browser-mode server put in the page (see src/main/web/first-answers.ts): answers to the window's first
// calls, and the first item's Markdown already parsed. Read once and taken out of the document.

/** How long after the page loaded its answers stand for a fresh call. */
const FIRST_ANSWERS_MS = 10_000

const page = readPage()
const answers = new Map(page.answers.map((a) => [a.key, a.envelope]))
const markdown = new Map(page.markdown.map((m) => [viewTextKey(m.text, m.sourceOffset), m.hast]))

function readPage(): FirstPage {
  const none: FirstPage = { answers: [], markdown: [] }
  const block = typeof document === 'undefined' ? null : document.getElementById(FIRST_ANSWERS_ID)
  if (!block) return none
  block.remove()
  try {
    const read = JSON.parse(block.textContent ?? '') as Partial<FirstPage>
    return { answers: Array.isArray(read.answers) ? read.answers : [], markdown: Array.isArray(read.markdown) ? read.markdown : [] }
  } catch {
    // A page without usable answers: every call goes to the server, every text is parsed here.
    return none
  }
}

/**
 * The page's answer to the window's call, if it is the next one the page holds: each serves the first call with the
 * same operation and input, once, within FIRST_ANSWERS_MS. Any other call first drops the rest, since from then on
 * they may be out of date.
 */
export function firstAnswer(operation: string, input: unknown): Envelope | undefined {
  if (answers.size === 0) return undefined
  const key = firstAnswerKey(operation, input)
  const envelope = performance.now() < FIRST_ANSWERS_MS ? answers.get(key) : undefined
  if (envelope) answers.delete(key)
  else answers.clear()
  return envelope
}

/** Whether the page brought an item's texts parsed (browser mode, for an annotator with an item waiting). */
export const pageBroughtParsedTexts = markdown.size > 0

/** Forgets the answers that came with the page (the project changed since). */
export function dropFirstAnswers(): void {
  answers.clear()
}

/** The tree the page brought for this text at this offset, handed out once (it is consumed when rendered). */
export function takePreparsedMarkdown(text: string, sourceOffset: number): unknown {
  const key = viewTextKey(text, sourceOffset)
  const hast = markdown.get(key)
  markdown.delete(key)
  return hast
}
