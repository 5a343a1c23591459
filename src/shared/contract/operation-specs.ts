import type { OperationName, Operations } from './operations'
import type { OperationSpec } from './define'

// One operation's spec without building the whole contract: each group's schemas are made when an operation of the
// group is first called, so a command that reads the project's counts builds neither the report's output schema nor
// the runner's (the table in operations.ts stays the one contract; a test holds the two to the same objects).

type Group = OperationName extends infer N ? (N extends `${infer G}.${string}` ? G : never) : never
type Table = Partial<Record<OperationName, OperationSpec>>

const core = () => import('./core-operations').then((m): Table => m.coreOperations)
const runs = () => import('./run-operations').then((m): Table => m.runOperations)

/** Where each group's operations are declared; a new group is a compile error here. */
const GROUPS: Record<Group, () => Promise<Table>> = {
  session: core,
  project: core,
  settings: () => import('./settings-operations').then((m) => m.settingsOperations),
  items: core,
  annotators: core,
  assignments: core,
  queue: core,
  annotations: core,
  checks: core,
  import: () => import('./import-operations').then((m) => m.importOperations),
  judges: runs,
  templates: runs,
  prices: runs,
  keys: runs,
  panel: runs,
  runs: () => Promise.all([runs(), import('./run-execute-operations')]).then(([r, m]): Table => ({ ...r, ...m.runExecuteOperations })),
  packets: () => import('./packet-operations').then((m) => m.packetOperations),
  adjudication: () => import('./packet-operations').then((m) => m.packetOperations),
  report: () => import('./report-operations').then((m) => m.reportOperations),
  probes: () => import('./probe-operations').then((m) => m.probeOperations),
  limits: () => import('./limits-operations').then((m) => m.limitsOperations),
  instruments: () => import('./instrument-operations').then((m) => m.instrumentOperations),
  export: () => import('./export-operations').then((m) => m.exportOperations)
}

/** The spec of the operation `name`, or undefined for a name the contract does not have. */
export async function operationSpec<K extends OperationName>(name: K): Promise<Operations[K]>
export async function operationSpec(name: string): Promise<OperationSpec | undefined>
export async function operationSpec(name: string): Promise<OperationSpec | undefined> {
  const dot = name.indexOf('.')
  const group = dot > 0 ? name.slice(0, dot) : ''
  if (!Object.hasOwn(GROUPS, group)) return undefined
  const table = await GROUPS[group as Group]()
  return Object.hasOwn(table, name) ? table[name as OperationName] : undefined
}
