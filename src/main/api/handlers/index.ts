import type { OperationName } from '../../../shared/contract/operations'
import type { Handler } from './types'
import { sessionHandlers } from './session'
import { projectHandlers } from './project'
import { itemHandlers } from './items'
import { annotationHandlers } from './annotation'
import { runHandlers } from './runs'
import { packetHandlers } from './packets'
import { importHandlers } from './imports'
import { reportHandlers } from './report'
import { probeHandlers } from './probes'
import { limitsHandlers } from './limits'
import { instrumentHandlers } from './instruments'
import { exportHandlers } from './exports'

/** Every operation of the contract has exactly one handler; a missing one is a compile error. */
export const handlers: { [K in OperationName]: Handler<K> } = {
  ...sessionHandlers,
  ...projectHandlers,
  ...itemHandlers,
  ...annotationHandlers,
  ...importHandlers,
  ...runHandlers,
  ...packetHandlers,
  ...reportHandlers,
  ...probeHandlers,
  ...limitsHandlers,
  ...instrumentHandlers,
  ...exportHandlers
}
