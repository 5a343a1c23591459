import { dispatch } from '../api/dispatch'
import type { ApiContext } from '../api/context'
import type { Envelope } from '../../shared/contract/client'
import { FIRST_ANSWERS_ID, firstAnswerKey, type FirstPage, type PreparsedMarkdown } from '../../shared/contract/first-answers'
import { getInstrument } from '../../shared/instruments'
import { viewTextKey, viewTexts } from '../../shared/markdown/view-texts'
import { parseOffThread } from './parse-job'

/**
 * The most a queue's rows may take in the page (some 4,500 rows). A longer queue's rows, and so its first item, are
 * left for the window to ask for: every load of the page would otherwise carry, hash and compress megabytes.
 */
const LIST_BUDGET_BYTES = 256 * 1024

/**
 * The fewest bytes a queue row takes in the list's JSON (`{"assignmentId":1,"index":0,"status":"done"}` and a
 * comma): a queue longer than the budget allows at this size is not even listed to be measured.
 */
const MIN_ROW_BYTES = JSON.stringify({ assignmentId: 1, index: 0, status: 'done' }).length + 1

/**
 * The most characters of the first item's texts the server parses for the page, and the longest it waits for that
 * parse (done in a worker thread, so other requests are answered meanwhile). An item over either is left for the
 * window to ask for, as the first item of a long queue is: a proposal of half a megabyte with thousands of formulas
 * takes seconds to parse, and a page that waits for it would be slower than the window asking.
 */
const PARSE_BUDGET_CHARS = 200_000
const PARSE_BUDGET_MS = 2000
/** And the most the parsed trees may add to the page: a formula's HTML is a hundred times its source or more. */
const PARSE_BUDGET_BYTES = 4 * 1024 * 1024

export interface FirstAnswersOptions {
  listBudgetBytes?: number
  parseBudgetChars?: number
  parseBudgetMs?: number
  parseBudgetBytes?: number
}

/**
 * What the window asks first, answered in the page itself: who is using it, the project, the display settings and,
 * for an annotator, the queues, the first queue's rows and its first pending item (what Enter on the queue list
 * opens), with that item's Markdown already parsed. Each answer comes from the same operation as over /api, with the
 * same session, so the same access checks and blinding apply; an operation that fails is left out and the window
 * asks for it as usual.
 */
export async function firstAnswers(
  ctx: ApiContext,
  {
    listBudgetBytes = LIST_BUDGET_BYTES,
    parseBudgetChars = PARSE_BUDGET_CHARS,
    parseBudgetMs = PARSE_BUDGET_MS,
    parseBudgetBytes = PARSE_BUDGET_BYTES
  }: FirstAnswersOptions = {}
): Promise<FirstPage> {
  const page: FirstPage = { answers: [], markdown: [] }
  const ask = async (op: string, input: Record<string, unknown>, budgetBytes = Infinity): Promise<unknown> => {
    const envelope: Envelope = await dispatch(ctx, op, input)
    if (!envelope.ok) return undefined
    // The window takes the answers in order and drops the rest at the first it lacks: one left out ends the page's.
    if (budgetBytes !== Infinity && JSON.stringify(envelope).length > budgetBytes) return undefined
    page.answers.push({ key: firstAnswerKey(op, input), envelope })
    return envelope.value
  }
  await ask('session.get', {})
  await ask('project.info', {})
  // The project's own instruments, built before any form is drawn.
  await ask('instruments.list', {})
  await ask('settings.get', {})
  if (ctx.session.role !== 'annotator' || !ctx.session.annotator) return page
  const summary = (await ask('queue.summary', {})) as { queues: Array<{ instrument_id: string; total: number }> } | undefined
  const first = summary?.queues[0]
  if (!first || first.total * MIN_ROW_BYTES > listBudgetBytes) return page
  const list = (await ask('queue.list', { instrument: first.instrument_id }, listBudgetBytes)) as { rows: Array<{ assignmentId: number; status: string }> } | undefined
  const pending = list?.rows.find((r) => r.status === 'pending')
  if (!pending) return page
  const item = (await ask('queue.item', { assignmentId: pending.assignmentId })) as { instrument: string; view: Record<string, unknown> } | undefined
  if (!item) return page
  const markdown = await parsedTexts(item.instrument, item.view, { chars: parseBudgetChars, ms: parseBudgetMs, bytes: parseBudgetBytes })
  // Over its budget the item goes with its texts: the window asks for it and parses them itself.
  if (markdown) page.markdown = markdown
  else page.answers.pop()
  return page
}

/** Parsed trees kept across page loads (a reload, another tab), most recently used last. */
const PARSED_LIMIT = 64
/** And at most this many characters of text behind them (a tree is several times its text). */
const PARSED_CHARS_LIMIT = 2_000_000
const parsed = new Map<string, unknown>()
let parsedChars = 0
/** Texts whose parse ran past the time budget or whose trees were too large: later pages leave them out at once. */
const leftOut = new Set<string>()

/**
 * The item's texts as the window would parse them, parsed in a worker thread (the pipeline — remark, rehype, KaTeX
 * — is loaded there, so the server neither starts with it nor blocks on it). Null when the texts not parsed yet
 * exceed the budget in characters, in time or in the bytes their trees take.
 */
async function parsedTexts(instrumentId: string, view: Record<string, unknown>, budget: { chars: number; ms: number; bytes: number }): Promise<PreparsedMarkdown[] | null> {
  const form = getInstrument(instrumentId).form
  const texts = new Map<string, { text: string; sourceOffset: number }>()
  // The same text at the same offset (both sides of a pair share a section) is sent once.
  for (const t of viewTexts(view, form.widgets, form.rubric)) texts.set(viewTextKey(t.text, t.sourceOffset), { text: t.text, sourceOffset: t.sourceOffset })
  const keys = [...texts.keys()]
  if (keys.some((k) => leftOut.has(k))) return null
  const missing = keys.filter((k) => !parsed.has(k))
  const chars = missing.reduce((n, k) => n + texts.get(k)!.text.length, 0)
  if (chars > budget.chars) return null
  if (missing.length) {
    // Prepared as the window would prepare it (each formula as one HTML string): fewer bytes, and less for the
    // window to walk and build.
    const hasts = await parseOffThread(
      missing.map((k) => texts.get(k)!),
      budget.ms,
      budget.bytes
    )
    if (hasts === 'too-slow' || hasts === 'too-large') for (const k of missing) remember(leftOut, k)
    if (!Array.isArray(hasts)) return null
    missing.forEach((k, i) => {
      // Another page may have parsed the same text meanwhile.
      if (!parsed.has(k)) parsedChars += k.length
      parsed.set(k, hasts[i])
    })
  }
  const out: PreparsedMarkdown[] = []
  for (const k of keys) {
    const hast = parsed.get(k)
    parsed.delete(k)
    parsed.set(k, hast)
    out.push({ ...texts.get(k)!, hast })
  }
  while (parsed.size > PARSED_LIMIT || (parsedChars > PARSED_CHARS_LIMIT && parsed.size > keys.length)) {
    const oldest = parsed.keys().next().value!
    parsed.delete(oldest)
    parsedChars -= oldest.length
  }
  return out
}

function remember(set: Set<string>, key: string): void {
  set.add(key)
  if (set.size > PARSED_LIMIT) set.delete(set.values().next().value!)
}

/**
 * The answers as a JSON data block for the page's head. A data block is never executed (the CSP's script-src is
 * untouched), and `<`, `>` and `&` are escaped so no text in an answer can close the element.
 */
export function firstAnswersBlock(page: FirstPage): string {
  const json = JSON.stringify(page).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  return `<script type="application/json" id="${FIRST_ANSWERS_ID}">${json}</script>`
}
