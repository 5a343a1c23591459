// A child process that writes items one transaction at a time and prints each id once its commit returned.
// Usage: tsx test/support/writer.ts <project> <prefix> <count>
import { Project } from '../../src/main/store/project'
import { insertItems } from '../../src/main/store/items'

const [path, prefix, countArg] = process.argv.slice(2)
const count = Number(countArg ?? '1000000')
const project = await Project.open(path!)
for (let i = 0; i < count; i++) {
  const [id] = project.write((db) =>
    insertItems(db, [{ kind: 'idea', externalId: `${prefix}-${i}`, set: prefix!, split: 'none', payload: { idea: `idea ${i} `.repeat(20) } }])
  )
  process.stdout.write(`ack ${prefix}-${i} ${id}\n`)
}
project.close()
process.stdout.write('done\n')
