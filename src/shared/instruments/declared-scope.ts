import type { AnyInstrument } from './types'

// Where main looks first for declared instruments: those of the project the current operation runs for, so two
// projects open in one process (two windows) never see, or validate with, each other's declarations. Kept apart from
// the registry so that setting it loads no instrument.

let scoped: () => ReadonlyMap<string, AnyInstrument> | undefined = () => undefined

/** Sets how the current project's own instruments are found (main's operation scope); none found: the open ones. */
export function setDeclaredScope(lookup: () => ReadonlyMap<string, AnyInstrument> | undefined): void {
  scoped = lookup
}

/** The current operation's project's declared instruments, where an operation scope has them. */
export function scopedDeclared(): ReadonlyMap<string, AnyInstrument> | undefined {
  return scoped()
}
