import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Command } from 'commander'
import { AssayError } from '../../../shared/errors'
import { Project } from '../../store/project'
import type { CliIO } from '../run'

export function registerNew(program: Command, io: CliIO): void {
  program
    .command('new')
    .description('Create a new project file')
    .argument('<file>', 'path of the .assay file to create')
    .option('--demo', 'fill it with the bundled demo project')
    .action(async (file: string, opts: { demo?: boolean }) => {
      const path = resolve(file)
      if (existsSync(path)) throw new AssayError('conflict', `${path} already exists; choose another name or remove it first`)
      const project = await Project.create(path)
      try {
        if (opts.demo) {
          const { loadDemo } = await import('../../demo/load-demo')
          const summary = await loadDemo(project)
          io.out(`Created ${path} with the demo: ${summary}`)
        } else {
          io.out(`Created ${path}`)
        }
      } finally {
        project.close()
      }
    })
}
