import { createContext } from 'react'

/**
 * How far the open queue is. Read where it is shown (the item's bar) rather than passed down, so a submission
 * updates that line and not the items held ready behind the one on screen.
 */
export const QueueProgress = createContext<{ done: number; total: number }>({ done: 0, total: 0 })

export type { Counts } from './queue-rows'
