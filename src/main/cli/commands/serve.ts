import { existsSync, mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { spawnSync } from 'node:child_process'
import { homedir } from 'node:os'
import type { Command } from 'commander'
import { AssayError } from '../../../shared/errors'
import { demoProjectPath } from '../../demo/demo-path'
import { Project } from '../../store/project'
import { appRoot, rendererDir } from '../../paths'
import type { SessionState } from '../../api/context'
import type { CliIO } from '../run'

interface ServeOptions {
  port?: string
  annotator?: string
  open?: boolean
}

export function registerServe(program: Command, io: CliIO): void {
  program
    .command('serve')
    .description('Serve the workbench for a project in a browser, on 127.0.0.1 with a random token')
    .argument('<file>', 'the .assay project file')
    .option('--port <n>', 'port to listen on (default: any free port)')
    .option('--annotator <name>', 'lock the session to this annotator (blind; curator screens refused)')
    .option('--open', 'open the printed URL in the default browser')
    .action(async (file: string, opts: ServeOptions) => {
      await serve(resolve(file), opts, io)
    })

  program
    .command('serve-demo', { hidden: true })
    .description('Create the demo project (once) and serve it')
    .option('--port <n>', 'port to listen on')
    .option('--open', 'open the printed URL in the default browser')
    .action(async (opts: ServeOptions) => {
      const path = demoProjectPath(process.env, process.platform, homedir())
      if (!existsSync(path)) {
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
        const { loadDemo } = await import('../../demo/load-demo')
        const p = await Project.create(path)
        try {
          await loadDemo(p)
        } finally {
          p.close()
        }
      }
      io.out(`Demo project: ${path}`)
      await serve(path, opts, io)
    })
}

async function serve(path: string, opts: ServeOptions, io: CliIO): Promise<void> {
  const port = opts.port === undefined ? 0 : Number(opts.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new AssayError('invalid_input', `--port must be a whole number from 0 to 65535, not "${opts.port}"`)
  }
  // The web server and the API handlers load only for this command.
  const [{ curatorSession }, { lockedAnnotatorSession }, { EventHub }, { startWebServer }] = await Promise.all([
    import('../../api/context'),
    import('../../api/annotator-session'),
    import('../../events'),
    import('../../web/server')
  ])
  // A long-lived session checks the file's integrity first: a damaged project is refused, not served.
  const project = await Project.open(path, { verify: true })
  const hub = new EventHub()
  let session: SessionState = curatorSession()
  try {
    if (project.isPacket || opts.annotator) {
      const name = opts.annotator ?? project.meta('packet_annotator')
      if (!name) throw new AssayError('invalid_input', 'This packet names no annotator')
      // Through the contract, as `annotators add` and the workbench's form: the same rules on names at every door.
      session = await lockedAnnotatorSession(project, hub, name)
    }
    // After the name is taken: a refused name is told at once, before any build.
    ensureRendererBuilt(io)
  } catch (e) {
    project.close()
    throw e
  }
  const server = await startWebServer({ project, hub, session, rendererDir: rendererDir(), port })
  io.out(`Assay is serving ${path}`)
  io.out(`Open: ${server.url}`)
  io.out('Press Ctrl+C to stop.')
  if (opts.open) openBrowser(server.url)
  await new Promise<void>((done) => {
    const stop = () => {
      void server.close().then(() => {
        project.close()
        done()
      })
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
}

function ensureRendererBuilt(io: CliIO): void {
  if (existsSync(join(rendererDir(), 'index.html'))) return
  const cli = join(appRoot(), 'node_modules', 'electron-vite', 'bin', 'electron-vite.js')
  if (!existsSync(cli)) throw new AssayError('not_found', 'The workbench UI is not built and cannot be built here: run `npm run build`')
  io.err('Building the workbench UI (first start)…')
  const r = spawnSync(process.execPath, [cli, 'build'], { cwd: appRoot(), stdio: 'inherit' })
  if (r.status !== 0) throw new AssayError('internal', 'Building the workbench UI failed; see the output above')
}

function openBrowser(url: string): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'cmd' : 'xdg-open'
  const args = process.platform === 'win32' ? ['/c', 'start', '', url] : [url]
  try {
    spawnSync(cmd, args, { stdio: 'ignore', timeout: 5000 })
  } catch {
    // No browser launcher: the URL is printed above.
  }
}
