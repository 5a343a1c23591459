import type { Split } from '../../shared/items/kinds'
import { buildReport, type Report, type ReportOptions } from '../../shared/report'
import type { Db } from '../store/database'
import { gatherReportInput } from './gather'

export interface ProjectReportOptions extends ReportOptions {
  instrument: string
  split?: Split | undefined
  /** Also report archived runs and runs of archived judges. */
  includeArchived?: boolean | undefined
  /** Keep only these judges (source ids); people and criteria always stay. */
  sources?: readonly string[] | undefined
  /** hypothesis-match: the panel's members. */
  panel?: readonly string[] | undefined
}

/** The audit report of one instrument of a project (read-only), computed on the calling thread. */
export function projectReport(db: Db, options: ProjectReportOptions): Report {
  const { instrument, split, includeArchived, sources, panel, ...rest } = options
  const input = gatherReportInput(db, { instrument, split, includeArchived, sources, panel })
  return buildReport(input, rest)
}
