import { z } from 'zod'
import { coreOperations } from './core-operations'
import { runOperations } from './run-operations'
import { packetOperations } from './packet-operations'
import { reportOperations, reportProgressSchema } from './report-operations'
import { importOperations } from './import-operations'
import { settingsOperations } from './settings-operations'
import { probeOperations } from './probe-operations'
import { limitsOperations } from './limits-operations'
import { instrumentOperations } from './instrument-operations'
import { exportOperations } from './export-operations'
import { runExecuteOperations, runStartingSchema } from './run-execute-operations'

/**
 * The one contract: every operation any client may call, with its input, output and access.
 * IPC handlers, the preload bridge, the HTTP bridge and the renderer's client are all derived from this table.
 */
export const operations = {
  ...coreOperations,
  ...importOperations,
  ...settingsOperations,
  ...runOperations,
  ...runExecuteOperations,
  ...packetOperations,
  ...reportOperations,
  ...probeOperations,
  ...limitsOperations,
  ...instrumentOperations,
  ...exportOperations
} as const

/** Events pushed from main to every client. */
export const events = {
  'project.changed': z.object({ what: z.enum(['items', 'annotations', 'runs', 'assignments', 'judges', 'templates']) }),
  'run.progress': z.object({
    runId: z.number().int(),
    done: z.number().int(),
    failed: z.number().int(),
    total: z.number().int(),
    costUsd: z.number(),
    etaMs: z.number().nullable()
  }),
  'report.progress': reportProgressSchema,
  /** A run was recorded and is about to start (told before its first call, so an interrupted one can be resumed). */
  'run.prepared': z.object({ runId: z.number().int(), template: z.string(), split: z.string() }),
  'run.starting': runStartingSchema
} as const

export type Operations = typeof operations
export type OperationName = keyof Operations
export type OperationInput<K extends OperationName> = z.input<Operations[K]['input']>
export type OperationParsedInput<K extends OperationName> = z.output<Operations[K]['input']>
export type OperationOutput<K extends OperationName> = z.output<Operations[K]['output']>
export type Events = typeof events
export type EventName = keyof Events
export type EventPayload<K extends EventName> = z.output<Events[K]>

export const OPERATION_NAMES = Object.keys(operations) as OperationName[]
export const EVENT_NAMES = Object.keys(events) as EventName[]

export function isOperationName(name: string): name is OperationName {
  return Object.prototype.hasOwnProperty.call(operations, name)
}
