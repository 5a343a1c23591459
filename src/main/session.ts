import type { Role } from '../shared/contract/schemas'

/** Per-client session: a window in the desktop app, a token in browser mode. */
export interface SessionState {
  role: Role
  annotator: { id: number; name: string } | null
  /** A locked session cannot become curator (packets, servers started for one annotator). */
  locked: boolean
}
