import { useCallback, useState } from 'react'
import { api } from '../api'
import { checkOutputText } from '../../../shared/check-output'
import { getAt, setAt } from './paths'
import { isCodeValue, type FieldIssue } from './validate'

/** Runs a worked check's code in main's isolated worker and stores the output beside the code that produced it. */
export function useCheckRunner(
  data: unknown,
  update: (change: (d: unknown) => unknown) => void,
  clearAt: (path: string) => void,
  addNote: (issue: FieldIssue) => void
): { runCheck(path: string): void; running: ReadonlySet<string> } {
  const [running, setRunning] = useState<ReadonlySet<string>>(new Set())
  const runCheck = useCallback(
    (path: string) => {
      const value = getAt(data, path)
      if (!isCodeValue(value) || !value.code.trim()) return
      const code = value.code
      setRunning((s) => new Set(s).add(path))
      api['checks.run']({ code })
        .then(
          (r) => {
            // The same text main computes when it re-runs the check on submit.
            const output = checkOutputText(r)
            update((d) => {
              const now = getAt(d, path)
              // Only if the code is still what ran: the output must belong to the stored code.
              return isCodeValue(now) && now.code === code ? setAt(d, path, { code, output, ran_at: new Date().toISOString() }) : d
            })
            clearAt(path)
          },
          (e: Error) => addNote({ path, message: `The check did not run: ${e.message}` })
        )
        .finally(() =>
          setRunning((s) => {
            const next = new Set(s)
            next.delete(path)
            return next
          })
        )
    },
    [data, update, clearAt, addNote]
  )
  return { runCheck, running }
}
