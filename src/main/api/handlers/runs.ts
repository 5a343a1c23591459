import type { HandlerGroup } from './types'
import type { runOperations } from '../../../shared/contract/run-operations'

export const runHandlers: HandlerGroup<keyof typeof runOperations> = {}
