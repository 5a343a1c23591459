import { buildProgram } from './program'
import { processIO, runProgram } from './run'

// Entry point of `npx assay`. Long-running commands (serve) keep the process alive themselves.

// A reader that stops early (`assay info x --json | head`) closes the pipe: that is not an error of ours.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0)
  throw e
})
const code = await runProgram(buildProgram(processIO), process.argv.slice(2), processIO)
if (code !== 0) process.exitCode = code
