import { useCallback, useEffect, useRef, useState } from 'react'
import { api } from '../api'
import type { ActiveClock } from './clock'
import { dropBackup, writeBackup } from './draft-backup'

export type SaveState = 'clean' | 'dirty' | 'saving' | 'saved' | 'error'

const RETRY_MS = 3000

export interface Autosave {
  state: SaveState
  savedAt: string | null
  error: string | null
  /** The form changed: keep a local copy now, save to main after the debounce. */
  schedule(data: unknown): void
  /** Save what is pending now; resolves when main has it (or the attempt failed). */
  flush(): Promise<void>
  /** Forget what is pending (the answer was submitted); resolves after any save already on its way. */
  discard(): Promise<void>
}

/**
 * Drafts are saved while typing, at most `delayMs` after the last change, one request at a time and in order, so an
 * older draft never overwrites a newer one. A failed save is retried; the local backup holds the state meanwhile.
 */
export function useAutosave(assignmentId: number, backup: string, clock: ActiveClock, layout: string | undefined, delayMs = 600): Autosave {
  const [state, setState] = useState<SaveState>('clean')
  const [savedAt, setSavedAt] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const pending = useRef<{ data: unknown } | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const chain = useRef<Promise<void>>(Promise.resolve())
  const mounted = useRef(true)

  const clearTimer = () => {
    if (timer.current !== null) clearTimeout(timer.current)
    timer.current = null
  }

  const saveNow = useCallback((): Promise<void> => {
    clearTimer()
    chain.current = chain.current.then(async () => {
      const next = pending.current
      if (!next) return
      pending.current = null
      setState('saving')
      try {
        const res = await api['annotations.saveDraft']({ assignmentId, data: next.data, activeMs: clock.read(), ...(layout ? { layout } : {}) })
        if (!pending.current) {
          setState('saved')
          setSavedAt(res.savedAt)
          setError(null)
          dropBackup(backup)
        }
      } catch (e) {
        if (!pending.current) pending.current = next
        setState('error')
        setError((e as Error).message)
        if (mounted.current) timer.current = setTimeout(() => void saveNow(), RETRY_MS)
      }
    })
    return chain.current
  }, [assignmentId, backup, clock, layout])

  const schedule = useCallback(
    (data: unknown) => {
      pending.current = { data }
      writeBackup(backup, { data, activeMs: clock.read(), at: new Date().toISOString(), layout })
      setState('dirty')
      clearTimer()
      timer.current = setTimeout(() => void saveNow(), delayMs)
    },
    [backup, clock, layout, delayMs, saveNow]
  )

  const discard = useCallback(() => {
    clearTimer()
    pending.current = null
    dropBackup(backup)
    return chain.current
  }, [backup])

  // Closing or reloading the page: send what is pending with keepalive, which outlives the page (browser mode).
  useEffect(() => {
    const onHide = () => {
      const next = pending.current
      if (!next || window.assayTransport) return
      void fetch('/api/annotations.saveDraft', {
        method: 'POST',
        keepalive: true,
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ assignmentId, data: next.data, activeMs: clock.read(), ...(layout ? { layout } : {}) })
      }).catch(() => undefined)
    }
    window.addEventListener('pagehide', onHide)
    return () => window.removeEventListener('pagehide', onHide)
  }, [assignmentId, clock, layout])

  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
      // Leaving the item: whatever is pending goes now.
      void saveNow().finally(clearTimer)
    }
  }, [saveNow])

  return { state, savedAt, error, schedule, flush: saveNow, discard }
}
