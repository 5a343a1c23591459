// Entry of the desktop app's check process (an Electron utility process: the packaged app cannot run as Node). It
// receives one payload over parentPort, runs the same program as the Node child, answers and exits.
// `runInThisContext` only turns CHECK_PROGRAM, Assay's own host program as source text, into a function, exactly as the
// Node child's `node -e` does; it is no boundary and needs none. The annotator's snippet never reaches it: the program
// hands the snippet to QuickJS inside WebAssembly, which has no host function to call.
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
