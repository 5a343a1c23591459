import { demoAfterJudgeRun } from './fixtures'
import { projectReport } from '../../../src/main/audit'
import { renderReportHtml } from '../../../src/shared/report'
import { writeFileSync, rmSync } from 'node:fs'
rmSync('/tmp/demo2.assay', { force: true })
const p = await demoAfterJudgeRun('/tmp/demo2.assay')
const t = performance.now()
const r = projectReport(p.db, { instrument: 'pairwise-preference' })
console.error('ms', performance.now() - t)
writeFileSync('/tmp/demo2.html', renderReportHtml(r))
writeFileSync('/tmp/demo2.json', JSON.stringify(r, null, 1))
console.log(r.warnings)
p.close()
