import { app, utilityProcess } from 'electron'
import { checkProcessFlags, maxAnswerLength, type CheckLauncher, type CheckProcessOutcome } from '../checks/check-process'

/**
 * Worked checks in the desktop app: each runs in an Electron utility process (the packaged app cannot run as Node),
 * with the same engine (QuickJS in WebAssembly, with its own memory ceiling) as the Node child. The process's V8 heap
 * is bounded by a flag; everything else it holds is watched through the app's process metrics and the process is
 * killed once its resident memory passes the limit — no address-space limit is available to a utility process.
 */
export function utilityCheckLauncher(entry: string): CheckLauncher {
  return (payload, limits) =>
    new Promise<CheckProcessOutcome>((resolve) => {
      const child = utilityProcess.fork(entry, [], {
        execArgv: checkProcessFlags(limits),
        env: {},
        stdio: ['ignore', 'ignore', 'pipe'],
        serviceName: 'Assay worked check'
      })
      let answer = ''
      let stderr = ''
      let timedOut = false
      let killedFor: CheckProcessOutcome['killedFor']
      const stop = (why?: CheckProcessOutcome['killedFor']) => {
        if (why && !killedFor) killedFor = why
        child.kill()
      }
      const timer = setTimeout(() => {
        timedOut = true
        stop()
      }, limits.timeoutMs + 1500)
      const watch = setInterval(() => {
        const metric = child.pid === undefined ? undefined : app.getAppMetrics().find((m) => m.pid === child.pid)
        // workingSetSize is in kilobytes.
        if (metric && metric.memory.workingSetSize > limits.residentMb * 1024) stop('memory')
      }, 50)
      child.stderr?.setEncoding('utf8')
      child.stderr?.on('data', (c: string) => {
        if (stderr.length < 4096) stderr += c
      })
      child.on('message', (m: unknown) => {
        answer = typeof m === 'string' ? m : ''
        if (answer.length > maxAnswerLength(limits)) stop('output')
      })
      child.once('spawn', () => child.postMessage(payload))
      child.once('exit', (code) => {
        clearTimeout(timer)
        clearInterval(watch)
        resolve({ answer, stderr, exit: killedFor || timedOut ? null : code, signal: null, timedOut, ...(killedFor ? { killedFor } : {}) })
      })
    })
}
