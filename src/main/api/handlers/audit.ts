import type { HandlerGroup } from './types'
import type { auditOperations } from '../../../shared/contract/audit-operations'

export const auditHandlers: HandlerGroup<keyof typeof auditOperations> = {}
