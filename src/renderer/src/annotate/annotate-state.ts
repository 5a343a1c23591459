import { create } from 'zustand'
import type { OperationOutput } from '../../../shared/contract/operations'
import type { InstrumentId } from '../../../shared/instruments/types'
import { api } from '../api'

export type QueueSummary = OperationOutput<'queue.summary'>['queues'][number]

/** A submission made in this window, newest last: what Ctrl+Z withdraws. */
export interface SessionSubmission {
  annotationId: string
  assignmentId: number
  instrument: InstrumentId
}

interface AnnotateState {
  queues: QueueSummary[] | null
  /** The queue being worked through, and the assignment to open first (else the first pending one). */
  open: { instrument: InstrumentId; assignmentId: number | null } | null
  submissions: SessionSubmission[]
  notice: { text: string; tone: 'info' | 'error' } | null
  /** The history panel stays open from item to item once opened. */
  showHistory: boolean
  toggleHistory(): void
  loadQueues(): Promise<void>
  openQueue(instrument: InstrumentId, assignmentId?: number | null): void
  closeQueue(): void
  recordSubmission(s: SessionSubmission): void
  /** Takes the latest submission off the undo stack. */
  takeSubmission(): SessionSubmission | undefined
  notify(text: string, tone?: 'info' | 'error'): void
  clearNotice(): void
}

export const useAnnotate = create<AnnotateState>((set, get) => ({
  queues: null,
  open: null,
  submissions: [],
  notice: null,
  showHistory: false,
  toggleHistory: () => set((st) => ({ showHistory: !st.showHistory })),
  async loadQueues() {
    try {
      const { queues } = await api['queue.summary']({})
      set({ queues })
    } catch (e) {
      set({ notice: { text: (e as Error).message, tone: 'error' } })
    }
  },
  openQueue: (instrument, assignmentId = null) => set({ open: { instrument, assignmentId } }),
  closeQueue() {
    // Counts changed while the queue was open: show none rather than stale ones until they arrive.
    set({ open: null, queues: null })
    void get().loadQueues()
  },
  recordSubmission: (s) => set((st) => ({ submissions: [...st.submissions, s] })),
  takeSubmission() {
    const list = get().submissions
    const last = list[list.length - 1]
    if (last) set({ submissions: list.slice(0, -1) })
    return last
  },
  notify: (text, tone = 'info') => set({ notice: { text, tone } }),
  clearNotice: () => set({ notice: null })
}))
