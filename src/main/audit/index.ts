export { gatherAuditInput, type GatherOptions } from './gather'
export { projectReport, type ProjectReportOptions } from './report'
export { auditableInstruments, type AuditableInstrument } from './instruments'
export { panelSourceInput } from './panel'
