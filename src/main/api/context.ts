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

/** A native open dialog, where the client has one (the desktop app); resolves null when the person cancels. */
export type FileChooser = (options: { title: string }) => Promise<string | null>

export interface ApiContext {
  project: Project
  session: SessionState
  events: EventSink
  chooseFile?: FileChooser
}

export function curatorSession(): SessionState {
  return { role: 'curator', annotator: null, locked: false }
}
