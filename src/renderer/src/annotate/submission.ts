import type { FieldIssue } from './validate'

/**
 * An answer handed from the item to the queue on submit. The queue shows the next item at once and commits this in
 * the background; `after` resolves when draft saves already on their way have landed (they go first).
 */
export interface Submission {
  judgement: unknown
  /** The form as it was, to bring back if the commit fails. */
  data: unknown
  activeMs: number
  /** The browser's copy of the answer, kept until main has committed it. */
  backupKey: string
  after: Promise<void>
}

/** A commit main refused or never acknowledged: the item reopens with this answer and message. */
export interface SubmitFailure {
  message: string
  issues: FieldIssue[]
  data: unknown
  activeMs: number
}

/** What the queue says about the latest answer handed over: saving until main acknowledges it. */
export interface CommitStatus {
  assignmentId: number
  position: number
  state: 'saving' | 'saved' | 'failed'
}
