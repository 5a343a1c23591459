import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { buildProgram } from '../../src/main/cli/program'
import { runProgram, type CliIO } from '../../src/main/cli/run'
import { repoRoot } from './tmp'

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

/** Runs the CLI in-process with captured output (fast; the same program object as `npx assay`). */
export async function runCli(...args: string[]): Promise<CliResult> {
  let stdout = ''
  let stderr = ''
  const io: CliIO = { out: (t) => (stdout += t.endsWith('\n') ? t : `${t}\n`), err: (t) => (stderr += t.endsWith('\n') ? t : `${t}\n`) }
  const code = await runProgram(buildProgram(io), args, io)
  return { code, stdout, stderr }
}

/** Runs the real executable in a child process, as a user would. */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv = {}): CliResult {
  const r = spawnSync(process.execPath, [join(repoRoot, 'bin', 'assay.mjs'), ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000 })
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr }
}
