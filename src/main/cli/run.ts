import { Command, CommanderError } from 'commander'
import { AssayError, formatLocation } from '../../shared/errors'

export const EXIT_OK = 0
export const EXIT_FAILURE = 1
export const EXIT_USAGE = 2

/** Output streams, injectable so integration tests can run commands in-process. */
export interface CliIO {
  out(text: string): void
  err(text: string): void
}

export const processIO: CliIO = {
  out: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
  err: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`)
}

/** Prints an error the way every command does: the message, then each location on its own line. */
export function reportError(io: CliIO, e: unknown): number {
  if (e instanceof AssayError) {
    io.err(`assay: ${e.message}`)
    for (const d of e.details ?? []) io.err(`  ${formatLocation(d)}`)
    return e.code === 'invalid_input' && !e.details?.some((d) => d.file) ? EXIT_USAGE : EXIT_FAILURE
  }
  io.err(`assay: ${e instanceof Error ? e.message : String(e)}`)
  return EXIT_FAILURE
}

/** Thrown by an action to end with a given exit code after it has printed what it had to say. */
export class ExitCode extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`)
  }
}

export async function runProgram(program: Command, argv: string[], io: CliIO): Promise<number> {
  program.exitOverride()
  program.configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
  for (const c of program.commands) {
    c.exitOverride()
    c.configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    for (const sub of c.commands) {
      sub.exitOverride()
      sub.configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    }
  }
  try {
    await program.parseAsync(argv, { from: 'user' })
    return EXIT_OK
  } catch (e) {
    if (e instanceof ExitCode) return e.code
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return EXIT_OK
      return EXIT_USAGE
    }
    return reportError(io, e)
  }
}
