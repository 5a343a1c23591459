import { Project } from '/work/main/src/main/store/project'
import { gatherAuditInput } from '/work/main/src/main/audit'
import { buildReport } from '/work/main/src/shared/report'
import { addPairs, addRun, addCalls, verdictFor } from '/work/main/test/integration/report/fixtures'
const project = await Project.create('/tmp/smoke-' + Date.now() + '.assay')
const pairs = Array.from({ length: 40 }, (_, i) => ({ id: `p${i}`, label: verdictFor(i % 3 ? 'b' : 'a'), labelSource: 'citations', origins: (i%2? ['human','ai'] : ['ai','human']) as any, generators: (i%2? [null,'gen-x'] : [i%4?'gen-y':'gen-x',null]) as any }))
const ids = addPairs(project, pairs)
const r1 = addRun(project, { instrument: 'pairwise-preference', judge: 'glm', bothOrders: true })
const calls = []
for (const [i, p] of pairs.entries()) { const item = ids.get(p.id)!; calls.push({ item, order: 0, swapped: false, judgement: { verdict: verdictFor(i % 5 ? 'a' : 'b') } }, { item, order: 1, swapped: true, judgement: { verdict: verdictFor(i % 7 ? 'a' : 'b') } }) }
addCalls(project, r1, calls)
let t = performance.now()
const input = gatherAuditInput(project.db, { instrument: 'pairwise-preference' })
console.error('gather ms', performance.now() - t)
for (let k = 0; k < 3; k++) { t = performance.now(); buildReport(input); console.error('build ms', performance.now() - t) }
