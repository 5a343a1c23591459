import { z } from 'zod'
import { op } from './define'

/**
 * Bounds on what one session can append. Answers are append-only, so without a cap one client could grow the
 * project file without limit; the limits live in the project's meta (key `answer_limits`) so a project that needs
 * longer answers can raise them. One definition for the store, the contract and `assay limits`.
 */
const answerLimitFields = {
  /** Size of one judgement as stored (UTF-8 bytes of its JSON). */
  judgement_bytes: z.number().int().positive(),
  /** Characters in any one text field of a judgement (a note, a quote, a check's code or output). */
  text_chars: z.number().int().positive(),
  /** Submissions a session may make at once before it has to wait… */
  submissions_burst: z.number().int().positive(),
  /** …and how many more it earns per minute after that. */
  submissions_per_minute: z.number().positive()
}

export const answerLimitsSchema = z
  .object({
    judgement_bytes: answerLimitFields.judgement_bytes.default(256 * 1024),
    text_chars: answerLimitFields.text_chars.default(32_000),
    submissions_burst: answerLimitFields.submissions_burst.default(30),
    submissions_per_minute: answerLimitFields.submissions_per_minute.default(120)
  })
  .strict()
export type AnswerLimits = z.infer<typeof answerLimitsSchema>

const answerLimitsOutput = z.object(answerLimitFields)

/** Operations of the project's caps on answers (merged into the one contract in operations.ts). */
export const limitsOperations = {
  'limits.get': op({
    input: z.object({}).strict(),
    output: answerLimitsOutput,
    access: 'curator',
    summary: "The project's caps on answers and submission rate"
  }),
  'limits.set': op({
    input: z.object(answerLimitFields).partial().strict(),
    output: answerLimitsOutput,
    access: 'curator',
    summary: "Change some of the project's caps on answers and submission rate; the others are kept (refused in a packet)"
  })
} as const
