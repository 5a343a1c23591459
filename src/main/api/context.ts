import type { Project } from '../store/project'
import type { EventSink } from '../events'
import type { SessionState } from '../session'

export type { SessionState } from '../session'
export type { EventSink } from '../events'

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
