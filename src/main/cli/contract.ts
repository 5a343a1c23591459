import { resolve } from 'node:path'
import { AssayError } from '../../shared/errors'
import type { EventName, EventPayload, OperationInput, OperationName, OperationOutput } from '../../shared/contract/operations'
import type { EventSink } from '../events'
import { damagedProjectError, isWritable } from '../store/database'
import { Project } from '../store/project'

// The command line's one door to project data: a command opens its project file here and calls the contract's
// operations through the same dispatcher as IPC and HTTP, so its input is checked by the same schemas, the same access
// rules apply and the output is the same typed value. Commands only turn flags into an operation's input and its
// output into text. Only this module (and the exceptions named in test/unit/architecture/cli-through-contract.test.ts)
// reaches the store.

/** An open project as a command sees it: operations of the contract, called as a curator at the desktop would. */
export interface CommandProject {
  /** The project file, as an absolute path (what messages name). */
  readonly path: string
  /** Calls an operation; a refusal is thrown as the AssayError it carries, so the command prints and exits as before. */
  call<K extends OperationName>(name: K, input: OperationInput<K>): Promise<OperationOutput<K>>
}

export interface OpenFor {
  /**
   * `read`: opened read-only (a file without write permission can still be read); `write`: opened to change it;
   * `write-if-possible`: to change it where the file can be written, else read-only (what exports do: they log the
   * test items they expose when they can, and a read-only file still exports what needs no log).
   */
  mode: 'read' | 'write' | 'write-if-possible'
  /** Checks the whole file first (PRAGMA quick_check), for `assay info --check`. */
  verify?: boolean
  /** Events the operations push (run progress), for commands that show them. */
  onEvent?: <E extends EventName>(event: E, payload: EventPayload<E>) => void
  /** Told when a file opened for reading cannot be written (commands print a note). */
  onNotWritable?: (path: string) => void
}

/** Opens `file`, runs `fn` with it, and closes it whatever happens. */
export async function withProject<T>(file: string, how: OpenFor, fn: (project: CommandProject) => Promise<T>): Promise<T> {
  const path = resolve(file)
  let project: Project
  if (how.mode === 'read' || (how.mode === 'write-if-possible' && !isWritable(path))) {
    const opened = await Project.openForReading(path, { verify: how.verify === true })
    project = opened.project
    if (opened.notWritable) how.onNotWritable?.(project.path)
  } else {
    project = await Project.open(path, { verify: how.verify === true })
  }
  const events: EventSink = { emit: (event, payload) => how.onEvent?.(event, payload) }
  // The dispatcher brings every handler (and the importer, runner and audit behind them): it loads when a command
  // calls its first operation, so `assay --help` stays instant.
  const { dispatch } = await import('../api/dispatch')
  const context = { project, session: { role: 'curator' as const, annotator: null, locked: false }, events }
  const commandProject: CommandProject = {
    path: project.path,
    call: async (name, input) => {
      const envelope = await dispatch(context, name, input)
      if (envelope.ok) return envelope.value as OperationOutput<typeof name>
      const error = AssayError.fromPayload(envelope.error)
      // A damaged file is named, as at opening: the dispatcher knows the SQLite message, the command knows the file.
      throw error.code === 'not_a_project' && !error.details ? damagedProjectError(project.path, error.message) : error
    }
  }
  try {
    return await fn(commandProject)
  } finally {
    project.close()
  }
}
