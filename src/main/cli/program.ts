import { Command } from 'commander'
import type { CliIO } from './run'
import { registerNew } from './commands/new'
import { registerInfo } from './commands/info'
import { registerServe } from './commands/serve'
import { registerSplit } from './commands/split'
import { registerImport } from './commands/import'
import { registerReport } from './commands/report'
import { registerJudge } from './commands/judge'
import { registerExport } from './commands/export'
import { registerPacket } from './commands/packet'
import { registerRuns } from './commands/runs'
import { registerAnnotators } from './commands/annotators'
import { registerAssign } from './commands/assign'
import { registerCalibrate } from './commands/calibrate'
import { registerLimits } from './commands/limits'
import { registerPrices } from './commands/prices'
import { registerProbe } from './commands/probe'
import { registerApi } from './commands/api'
import { registerInstrument } from './commands/instrument'

/** Registers every command; each command lives in its own module under ./commands. */
export function buildProgram(io: CliIO): Command {
  const program = new Command('assay')
    .description('Assay: audit LLM judges of scientific ideas against blind expert annotation')
    .version('0.1.0')
    // The program's options (--version) only before a command: after one they are the command's own, so
    // `instrument show FILE ID --version 1` picks a version instead of printing the program's.
    .enablePositionalOptions()
    .showHelpAfterError('(run with --help for usage)')
  registerNew(program, io)
  registerInfo(program, io)
  registerServe(program, io)
  registerSplit(program, io)
  registerImport(program, io)
  registerReport(program, io)
  registerJudge(program, io)
  registerExport(program, io)
  registerPacket(program, io)
  registerRuns(program, io)
  registerAnnotators(program, io)
  registerAssign(program, io)
  registerCalibrate(program, io)
  registerLimits(program, io)
  registerPrices(program, io)
  registerProbe(program, io)
  registerApi(program, io)
  registerInstrument(program, io)
  return program
}
