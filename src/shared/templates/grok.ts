import type { AnswerFormat, TemplateEntry } from './manifest'
import type { RenderedRequest } from './render'

// The text the hypothesis benchmark appended for Grok models (001, "Additional text for the Grok models"): without
// it Grok announced upcoming work and stopped. The first paragraph goes to the end of the system instruction and of
// the user message; the second sentence only to the user message, and only where the answer is a bare JSON object.
// The source does not say how the text is joined to a message; Assay separates it by a blank line.

export const GROK_SUFFIX_V1 = {
  version: 1,
  instruction:
    'You have no tools, no files and no internet access. Give your complete final answer in this single reply, ' +
    'in the requested format. Never describe what you are going to do; do it now.',
  jsonOnly: 'Your reply must start with { and be only the JSON object.'
} as const

export const GROK_SUFFIX_SEPARATOR = '\n\n'

/** Provider model ids such as "grok-4", "x-ai/grok-4.7" or "Grok 4.5". */
export function isGrokModel(modelId: string): boolean {
  return /grok/i.test(modelId)
}

/**
 * Whether the answer is a bare JSON object, which is what the second sentence demands. A JSON block after an
 * analysis (the LiveIdeaBench reviewer) is not: "must start with {" would forbid the analysis.
 */
export function answersWithJsonOnly(format: AnswerFormat | null): boolean {
  return format === 'json'
}

/** Appends the Grok text to rendered messages. */
export function applyGrokSuffix(messages: RenderedRequest, jsonOnlyAnswer: boolean): RenderedRequest {
  const sep = GROK_SUFFIX_SEPARATOR
  const userTail = jsonOnlyAnswer
    ? `${GROK_SUFFIX_V1.instruction}${sep}${GROK_SUFFIX_V1.jsonOnly}`
    : GROK_SUFFIX_V1.instruction
  const user = `${messages.user}${sep}${userTail}`
  return messages.system === undefined
    ? { user }
    : { system: `${messages.system}${sep}${GROK_SUFFIX_V1.instruction}`, user }
}

/**
 * Applies the rule for one request: only for Grok models and only for templates the source lists. `answerFormat`
 * overrides the entry's, for requests whose format comes from an inserted fragment (the stage requests).
 */
export function finishForModel(
  entry: TemplateEntry,
  messages: RenderedRequest,
  modelId: string,
  answerFormat: AnswerFormat | null = entry.answerFormat
): RenderedRequest {
  if (!entry.grokSuffix || !isGrokModel(modelId)) return messages
  return applyGrokSuffix(messages, answersWithJsonOnly(answerFormat))
}
