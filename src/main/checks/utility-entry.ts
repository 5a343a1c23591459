// Entry of the desktop app's check process (an Electron utility process: the packaged app cannot run as Node). It
// receives one payload over parentPort, runs the same program as the Node child, answers and exits.
import { createRequire } from 'node:module'
import { runInThisContext } from 'node:vm'
import { CHECK_PROGRAM, type CheckPayload } from './check-program'

interface ParentPort {
  once(event: 'message', listener: (e: { data: CheckPayload }) => void): void
  postMessage(message: string): void
}

const port = (process as unknown as { parentPort?: ParentPort }).parentPort
if (port) {
  const program = runInThisContext(CHECK_PROGRAM) as (req: NodeJS.Require, input: CheckPayload, done: (s: string) => void) => void
  port.once('message', (e) => {
    program(createRequire(import.meta.url), e.data, (s) => {
      port.postMessage(s)
      process.exit(0)
    })
  })
}
