import { create } from 'zustand'
import type { CommitStatus } from './submission'

/**
 * The latest answer handed to main and whether main has it. Kept apart from the queue's state, so an
 * acknowledgement re-renders this mark alone, never the item someone is working on.
 */
export const useCommitStatus = create<{ status: CommitStatus | null }>(() => ({ status: null }))

export function setCommitStatus(next: CommitStatus | null | ((current: CommitStatus | null) => CommitStatus | null)): void {
  useCommitStatus.setState((st) => ({ status: typeof next === 'function' ? next(st.status) : next }))
}

export function CommitMark() {
  const commit = useCommitStatus((s) => s.status)
  if (!commit) return null
  return (
    <p className={`commit-status commit-${commit.state}`} role="status" data-testid="commit-status" data-state={commit.state} data-assignment={commit.assignmentId}>
      {commit.state === 'saving' ? `Saving your answer to item ${commit.position}…` : commit.state === 'saved' ? `Answer to item ${commit.position} saved` : `Answer to item ${commit.position} not saved`}
    </p>
  )
}
