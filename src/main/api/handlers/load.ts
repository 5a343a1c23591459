import type { OperationName } from '../../../shared/contract/operations'
import type { Handler } from './types'

// The handlers by group, each loaded when an operation of its group is first called: a command line process that
// asks for the project's counts does not load the importer, the runner and its model SDKs, or the audit. The full
// table (./index.ts) stays the compile-time proof that every operation has exactly one handler.

type Group = OperationName extends infer N ? (N extends `${infer G}.${string}` ? G : never) : never
type Loaded = Partial<Record<OperationName, Handler<any>>>

/** Where each group of operations (the part of its name before the dot) is handled; a new group is a compile error here. */
const GROUPS: Record<Group, () => Promise<Loaded>> = {
  session: () => import('./session').then((m) => m.sessionHandlers),
  project: () => import('./project').then((m) => m.projectHandlers),
  settings: () => import('./project').then((m) => m.projectHandlers),
  items: () => import('./items').then((m) => m.itemHandlers),
  annotators: () => import('./annotation').then((m) => m.annotationHandlers),
  assignments: () => import('./annotation').then((m) => m.annotationHandlers),
  queue: () => import('./annotation').then((m) => m.annotationHandlers),
  annotations: () => import('./annotation').then((m) => m.annotationHandlers),
  checks: () => import('./annotation').then((m) => m.annotationHandlers),
  import: () => import('./imports').then((m) => m.importHandlers),
  judges: () => import('./runs').then((m) => m.runHandlers),
  templates: () => import('./runs').then((m) => m.runHandlers),
  prices: () => import('./runs').then((m) => m.runHandlers),
  keys: () => import('./runs').then((m) => m.runHandlers),
  runs: () => import('./runs').then((m) => m.runHandlers),
  panel: () => import('./runs').then((m) => m.runHandlers),
  packets: () => import('./packets').then((m) => m.packetHandlers),
  adjudication: () => import('./packets').then((m) => m.packetHandlers),
  report: () => import('./report').then((m) => m.reportHandlers),
  probes: () => import('./probes').then((m) => m.probeHandlers),
  limits: () => import('./limits').then((m) => m.limitsHandlers),
  instruments: () => import('./instruments').then((m) => m.instrumentHandlers),
  export: () => import('./exports').then((m) => m.exportHandlers)
}

/** The handler of one operation, its group's module loaded on first use. */
export async function loadHandler<K extends OperationName>(name: K): Promise<Handler<K>> {
  const group = name.slice(0, name.indexOf('.')) as Group
  const handler = (await GROUPS[group]())[name]
  if (!handler) throw new Error(`No handler for "${name}" in the ${group} group`)
  return handler as Handler<K>
}
