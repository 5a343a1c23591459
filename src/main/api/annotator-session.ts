import { AssayError } from '../../shared/errors'
import { annotatorNames, findAnnotator } from '../store/annotators'
import type { Project } from '../store/project'
import { curatorSession, type EventSink, type SessionState } from './context'
import { dispatch } from './dispatch'

/**
 * The session of a server or window that annotates as one person only (`serve --annotator`, an annotator's packet):
 * the annotator is found or added through the contract's `annotators.create`, so a name is held to the same rules
 * as at every other door, then the session is locked to them.
 */
export async function lockedAnnotatorSession(project: Project, events: EventSink, given: string): Promise<SessionState> {
  // A pseudonym (A01) that is nobody's name names its person, as reports name people, rather than adding a new one.
  const byPseudonym = findAnnotator(project, given) ? undefined : [...annotatorNames(project.db).values()].find((a) => a.pseudonym === given.trim())
  const name = byPseudonym?.name ?? given
  const envelope = await dispatch({ project, session: curatorSession(), events }, 'annotators.create', { name })
  if (!envelope.ok) {
    const error = AssayError.fromPayload(envelope.error)
    const why = error.details?.map((d) => d.message).join('; ')
    throw new AssayError(error.code, `Cannot annotate as ${JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name)}: ${why || error.message}`, error.details)
  }
  const a = envelope.value as { id: number; name: string }
  return { role: 'annotator', annotator: { id: a.id, name: a.name }, locked: true }
}
