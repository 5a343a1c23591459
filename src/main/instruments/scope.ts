import { AsyncLocalStorage } from 'node:async_hooks'
import { setDeclaredScope } from '../../shared/instruments/declared-scope'
import type { AnyInstrument } from '../../shared/instruments/types'
import type { Project } from '../store/project'

// Each operation sees the instruments of its own project: two projects open in one process (the desktop's windows)
// never validate, list or ask with each other's declarations. The scope follows the operation through every await,
// a run started in the background included.

const current = new AsyncLocalStorage<ReadonlyMap<string, AnyInstrument>>()
setDeclaredScope(() => current.getStore())

/** Runs `fn` with `project`'s own instruments as the declared ones. */
export function withProjectInstruments<T>(project: Pick<Project, 'declaredInstruments'>, fn: () => T): T {
  return current.run(project.declaredInstruments, fn)
}
