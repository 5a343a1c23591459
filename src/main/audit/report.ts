import type { Split } from '../../shared/items/kinds'
import { buildReport, type Report, type ReportOptions } from '../../shared/report'
import type { Db } from '../store/database'
import { gatherAuditInput } from './gather'

export interface ProjectReportOptions extends ReportOptions {
  instrument: string
  split?: Split | undefined
}

/** The audit report of one instrument of a project (read-only). */
export function projectReport(db: Db, options: ProjectReportOptions): Report {
  const { instrument, split, ...rest } = options
  return buildReport(gatherAuditInput(db, { instrument, split }), rest)
}
