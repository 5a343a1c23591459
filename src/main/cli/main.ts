import { buildProgram } from './program'
import { processIO, runProgram } from './run'

// Entry point of `npx assay`. Long-running commands (serve) keep the process alive themselves.
const code = await runProgram(buildProgram(processIO), process.argv.slice(2), processIO)
if (code !== 0) process.exitCode = code
