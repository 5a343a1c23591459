import { dispatch } from '../api/dispatch'
import type { ApiContext } from '../api/context'
import type { Envelope } from '../../shared/contract/client'
import { FIRST_ANSWERS_ID, firstAnswerKey, type FirstAnswer } from '../../shared/contract/first-answers'

/**
 * What the window asks first, answered in the page itself: who is using it, the project, the display settings and,
 * for an annotator, the queues, the first queue's rows and its first pending item (what Enter on the queue list
 * opens). Each answer comes from the same operation as over /api, with the same session, so the same access checks
 * and blinding apply; an operation that fails is left out and the window asks for it as usual.
 */
export async function firstAnswers(ctx: ApiContext): Promise<FirstAnswer[]> {
  const out: FirstAnswer[] = []
  const ask = async (op: string, input: Record<string, unknown>): Promise<unknown> => {
    const envelope: Envelope = await dispatch(ctx, op, input)
    if (!envelope.ok) return undefined
    out.push({ key: firstAnswerKey(op, input), envelope })
    return envelope.value
  }
  await ask('session.get', {})
  await ask('project.info', {})
  await ask('settings.get', {})
  if (ctx.session.role !== 'annotator' || !ctx.session.annotator) return out
  const summary = (await ask('queue.summary', {})) as { queues: Array<{ instrument_id: string }> } | undefined
  const first = summary?.queues[0]
  if (!first) return out
  const list = (await ask('queue.list', { instrument: first.instrument_id })) as { rows: Array<{ assignmentId: number; status: string }> } | undefined
  const pending = list?.rows.find((r) => r.status === 'pending')
  if (pending) await ask('queue.item', { assignmentId: pending.assignmentId })
  return out
}

/**
 * The answers as a JSON data block for the page's head. A data block is never executed (the CSP's script-src is
 * untouched), and `<`, `>` and `&` are escaped so no text in an answer can close the element.
 */
export function firstAnswersBlock(answers: FirstAnswer[]): string {
  const json = JSON.stringify(answers).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  return `<script type="application/json" id="${FIRST_ANSWERS_ID}">${json}</script>`
}
