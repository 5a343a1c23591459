import { randomUUID } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'

/**
 * Suite-level check that no process started by the tests outlives them. Every process the tests start inherits a
 * marker in its environment (made once per run in the Vitest config and given to every worker); at the end, any live process still carrying it
 * — or still in this run's process group — fails the run, listed, and is then ended. Reading other processes'
 * environments needs /proc, so the check runs on Linux and says so elsewhere.
 */
export const MARKER = 'ASSAY_TEST_RUN'

/** Called from the Vitest config, so the marker is in the environment the workers are given (`test.env`). */
export function runMarker(): string {
  process.env[MARKER] ??= randomUUID()
  return process.env[MARKER]
}

interface Proc {
  pid: number
  ppid: number
  pgid: number
  state: string
  /** Clock ticks after boot at which it started (field 22 of /proc/<pid>/stat). */
  started: number
  cmd: string
  marked: boolean
}

function readProc(pid: number, marker: string): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()
    let marked = false
    try {
      marked = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`${MARKER}=${marker}`)
    } catch {
      // Another user's process: not ours.
    }
    return { pid, state: rest[0]!, ppid: Number(rest[1]), pgid: Number(rest[2]), started: Number(rest[19]), cmd, marked }
  } catch {
    return null
  }
}

export function leftoverProcesses(marker: string): Proc[] {
  if (!existsSync('/proc/self/stat')) return []
  const procs = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => readProc(Number(d), marker))
    .filter((p): p is Proc => p !== null)
  const byPid = new Map(procs.map((p) => [p.pid, p]))
  // This process and its ancestors (npm, the shell) are not leftovers, nor are its own children (Vitest's workers and
  // services, which it ends itself): a test's process is a worker's child, or an orphan once the worker has gone.
  const mine = new Set<number>()
  for (let p = byPid.get(process.pid); p && !mine.has(p.pid); p = byPid.get(p.ppid)) mine.add(p.pid)
  const me = byPid.get(process.pid)
  // A process of this group that started before this one (`tee` in `npm test | tee log`) is not the tests'.
  const sameGroupLater = (p: Proc) => me !== undefined && p.pgid === me.pgid && p.started >= me.started
  return procs.filter((p) => !mine.has(p.pid) && p.ppid !== process.pid && p.state !== 'Z' && (p.marked || sameGroupLater(p)))
}

export async function teardown(): Promise<void> {
  const marker = process.env[MARKER]
  if (!marker) return
  if (!existsSync('/proc/self/stat')) {
    process.stdout.write('leftover-process check skipped: no /proc on this system\n')
    return
  }
  // Processes told to stop in the last afterAll get a moment to exit.
  let left = leftoverProcesses(marker)
  for (let waited = 0; left.length && waited < 5000; waited += 250) {
    await new Promise((r) => setTimeout(r, 250))
    left = leftoverProcesses(marker)
  }
  if (!left.length) return
  for (const p of left) {
    try {
      process.kill(p.pid, 'SIGKILL')
    } catch {
      // Already gone.
    }
  }
  // Vitest reports an error thrown here but does not fail the run for it: set the exit code as well.
  process.exitCode = 1
  throw new Error(`Processes started by the tests outlived them (now ended):\n${left.map((p) => `  pid ${p.pid}: ${p.cmd}`).join('\n')}`)
}
