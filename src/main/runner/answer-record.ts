import type { AnyInstrument } from '../../shared/instruments'
import type { CallRecord, WorkCall } from '../store/model-calls'
import { interpretAnswer } from './interpret'
import { costOf, type Price } from './prices'

/** What a provider (or the answer cache) reports with an answer's text. */
export interface AnswerMeta {
  inputTokens: number | null
  outputTokens: number | null
  modelVersion: string | null
  truncated: boolean
}

export interface AnswerRecorderOptions {
  instrument: AnyInstrument
  price: Price | undefined
  /** Batch APIs bill at their own rate. */
  batch: boolean
  payloadOf: (itemId: number) => Record<string, unknown>
}

/** Records a call's answer: read as the instrument's judgement and priced; an answer from the cache costs nothing. */
export function answerRecorder(
  o: AnswerRecorderOptions
): (call: WorkCall, text: string, meta: AnswerMeta, extra: { latencyMs: number | null; attempts: number; cached: boolean }) => CallRecord {
  return (call, text, meta, extra) => {
    const interpretation = interpretAnswer(o.instrument, call.prompt.format, text, call.display, o.payloadOf(call.itemId), meta.truncated)
    return {
      kind: 'answer',
      callId: call.id,
      hash: call.hash,
      raw: text,
      inputTokens: meta.inputTokens,
      outputTokens: meta.outputTokens,
      modelVersion: meta.modelVersion,
      status: interpretation.status,
      judgement: interpretation.judgement,
      error: interpretation.error,
      costUsd: extra.cached ? 0 : costOf(o.price, meta.inputTokens, meta.outputTokens, o.batch),
      latencyMs: extra.latencyMs,
      attempts: extra.attempts,
      cached: extra.cached
    }
  }
}
