// Run as a child process by kill.test.ts: imports one file and reports write progress on stdout, so the parent can
// kill it in the middle of the write transaction.
import { importFile, isImportFormat } from '../../../../src/main/import'
import { Project } from '../../../../src/main/store/project'

const [projectPath, format, dataPath] = process.argv.slice(2)
if (!projectPath || !format || !dataPath || !isImportFormat(format)) {
  process.stderr.write('usage: import-child <project> <format> <data>\n')
  process.exit(2)
}
const project = await Project.open(projectPath)
const report = await importFile(project, format, dataPath, {
  onProgress: (p) => {
    // Pipes are written synchronously on Linux and macOS, so each line leaves before the next batch starts.
    if (p.phase === 'writing') process.stdout.write(`writing ${p.done}/${p.total}\n`)
  }
})
project.close()
process.stdout.write(`finished ${report.imported} ${report.errors.length}\n`)
