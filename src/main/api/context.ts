import type { Project } from '../store/project'
import type { EventName, EventPayload } from '../../shared/contract/operations'
import type { Role } from '../../shared/contract/schemas'

/** Per-client session: a window in the desktop app, a token in browser mode. */
export interface SessionState {
  role: Role
  annotator: { id: number; name: string } | null
  /** A locked session cannot become curator (packets, servers started for one annotator). */
  locked: boolean
}

export interface EventSink {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void
}

export interface ApiContext {
  project: Project
  session: SessionState
  events: EventSink
}

export function curatorSession(): SessionState {
  return { role: 'curator', annotator: null, locked: false }
}
