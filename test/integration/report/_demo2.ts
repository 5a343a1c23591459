import { gatherAuditInput } from '../../../src/main/audit'
import { buildReport } from '../../../src/shared/report'
import { Project } from '../../../src/main/store/project'
const p = await Project.open('/tmp/demo2.assay')
const input = gatherAuditInput(p.db, { instrument: 'pairwise-preference' })
for (let i = 0; i < 3; i++) { const t = performance.now(); buildReport(input); console.error('ms', performance.now() - t) }
p.close()
