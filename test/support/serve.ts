import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { repoRoot } from './tmp'

export interface ServedProject {
  url: string
  origin: string
  process: ChildProcess
  stop(signal?: NodeJS.Signals): Promise<void>
}

/** Starts `assay serve` as a real child process (the same entry users run) and waits for its URL. */
export function serveProject(path: string, extraArgs: string[] = []): Promise<ServedProject> {
  const child = spawn(process.execPath, [join(repoRoot, 'bin', 'assay.mjs'), 'serve', path, ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`assay serve did not start: ${out}${err}`)), 60_000)
    child.stderr.on('data', (c: Buffer) => (err += c.toString()))
    child.on('exit', (code) => reject(new Error(`assay serve exited with ${code}: ${out}${err}`)))
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString()
      const m = /Open: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out)
      if (m) {
        clearTimeout(timer)
        const url = m[1]!
        resolve({
          url,
          origin: new URL(url).origin,
          process: child,
          stop: (signal = 'SIGTERM') =>
            new Promise<void>((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done()
              child.once('exit', () => done())
              child.kill(signal)
            })
        })
      }
    })
  })
}
