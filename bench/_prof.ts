import { mkdtempSync } from 'node:fs'
import { gatherAuditInput } from '../src/main/audit'
import { buildReport } from '../src/shared/report'
import { writeReportProject } from './report'
const dir = mkdtempSync('/tmp/assay-prof-')
const { project } = await writeReportProject(`${dir}/p.assay`, Number(process.argv[2] ?? 4000))
const input = gatherAuditInput(project.db, { instrument: 'pairwise-preference' })
const t = performance.now()
buildReport(input)
console.error('build ms', performance.now() - t)
