import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { BlindedItem } from '../../../shared/contract/annotation-schemas'
import { isAssayError } from '../../../shared/errors'
import { getInstrument } from '../../../shared/instruments'
import { containsSpan } from '../../../shared/instruments/common'
import { api } from '../api'
import { useWorkbench } from '../store'
import { ActiveClock, formatDuration } from './clock'
import { QuotePicker, ReasonDialog } from './Dialogs'
import { focusStopElement, isTypingTarget, selectedText } from './dom'
import { backupKey, dropBackup, readBackup } from './draft-backup'
import { FormContext, emptyEntry, type FormApi } from './form/context'
import { FormRenderer } from './form/FormRenderer'
import { HistoryPanel } from './HistoryPanel'
import { answerForKey } from './keys'
import { Legend } from './Legend'
import { getAt, isWithin, joinPath, removeAt, setAt } from './paths'
import { quoteProblem, quoteSources, sideOfSource, type QuoteCandidate, type QuoteSource, type QuoteWidget } from './quotes'
import { isPairView, SourceView } from './source/SourceView'
import { collectStops, isTextEntry, moveGroup, moveStop, stopForIssue, type ListWidget, type Stop } from './stops'
import { useAnnotate } from './store'
import { useAutosave, type SaveState } from './use-autosave'
import { formChecks, isCodeValue, validateForm, type FieldIssue } from './validate'
import { Markdown } from '../components/Markdown'

export interface ItemWorkspaceProps {
  item: BlindedItem
  queueTitle: string
  progress: { done: number; total: number }
  onNavigate(step: 1 | -1): void
  onSubmitted(annotationId: string): void
  onStatus(status: 'pending' | 'skipped' | 'flagged'): void
  onUndo(): void
  onExit(): void
}

interface Initial {
  data: unknown
  activeMs: number
  source: 'backup' | 'draft' | 'answer' | 'empty'
}

function initialState(item: BlindedItem, key: string, empty: () => unknown): Initial {
  const backup = readBackup(key)
  if (backup && (!item.draft || backup.at > item.draft.updatedAt)) return { data: backup.data, activeMs: backup.activeMs, source: 'backup' }
  if (item.draft) return { data: item.draft.data, activeMs: item.draft.activeMs, source: 'draft' }
  if (item.answer) return { data: item.answer.judgement, activeMs: 0, source: 'answer' }
  return { data: empty(), activeMs: 0, source: 'empty' }
}

/** The path of the object a field belongs to (a list entry or unit), for side-dependent quotes. */
function parentPath(path: string): string {
  const i = path.lastIndexOf('.')
  return i < 0 ? '' : path.slice(0, i)
}

/**
 * One item being annotated: the blinded view, the form built from the instrument, autosave, active time, history
 * and every keyboard shortcut. Keys act on the field under the cursor first, then on the item.
 */
export function ItemWorkspace(props: ItemWorkspaceProps) {
  const { item } = props
  const instrument = getInstrument(item.instrument)
  const view = item.view
  const widgets = instrument.form.widgets
  const projectId = useWorkbench((s) => s.info?.projectId ?? 'project')
  const annotatorId = useWorkbench((s) => s.session?.annotator?.id ?? 0)
  const key = backupKey(projectId, annotatorId, item.assignmentId)

  const [initial] = useState(() => initialState(item, key, () => instrument.form.empty(view)))
  const [clock] = useState(() => new ActiveClock(initial.activeMs))
  const [data, setData] = useState<unknown>(initial.data)
  const autosave = useAutosave(item.assignmentId, key, clock)
  const stops = useMemo(() => collectStops(widgets, data, view), [widgets, data, view])
  const [cursor, setCursor] = useState<string | null>(() => stops[0]?.path ?? null)
  const [attempted, setAttempted] = useState(false)
  const [serverIssues, setServerIssues] = useState<FieldIssue[]>([])
  const [notes, setNotes] = useState<FieldIssue[]>([])
  const [general, setGeneral] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [running, setRunning] = useState<ReadonlySet<string>>(new Set())
  const [dialog, setDialog] = useState<null | { kind: 'reason'; action: 'skip' | 'flag' } | { kind: 'picker'; path: string; sources: QuoteSource[] }>(null)
  const showHistory = useAnnotate((st) => st.showHistory)
  const toggleHistory = useAnnotate((st) => st.toggleHistory)
  const [historyVersion, setHistoryVersion] = useState(0)
  const [legendOpen, setLegendOpen] = useState(false)
  const sourceRef = useRef<HTMLElement>(null)
  const pendingFocus = useRef<string | null>(null)
  const firstData = useRef(true)

  // Save every change: a local copy at once, main after the debounce. A draft restored from the local copy is
  // newer than main's, so it is saved as well.
  const { schedule } = autosave
  useEffect(() => {
    if (firstData.current) {
      firstData.current = false
      if (initial.source !== 'backup') return
    }
    schedule(data)
  }, [data, schedule, initial.source])

  useLayoutEffect(() => {
    if (pendingFocus.current && focusStopElement(pendingFocus.current)) pendingFocus.current = null
  })

  // Active time: any key, click, wheel or pointer movement; a hidden window stops the clock.
  useEffect(() => {
    const onInput = () => clock.input()
    const onVisibility = () => (document.hidden ? clock.pause() : clock.input())
    const events = ['keydown', 'pointerdown', 'pointermove', 'wheel'] as const
    events.forEach((e) => window.addEventListener(e, onInput, { passive: true }))
    document.addEventListener('visibilitychange', onVisibility)
    return () => {
      events.forEach((e) => window.removeEventListener(e, onInput))
      document.removeEventListener('visibilitychange', onVisibility)
    }
  }, [clock])

  const update = useCallback((change: (d: unknown) => unknown) => setData((d: unknown) => change(d)), [])

  const clearAt = useCallback((path: string) => {
    const keep = (i: FieldIssue) => !isWithin(i.path, path) && !isWithin(path, i.path)
    setServerIssues((list) => (list.some((i) => !keep(i)) ? list.filter(keep) : list))
    setNotes((list) => (list.some((i) => !keep(i)) ? list.filter(keep) : list))
  }, [])

  const setValue = useCallback(
    (path: string, value: unknown) => {
      clearAt(path)
      setData((d: unknown) => (value === undefined ? removeAt(d, path) : setAt(d, path, value)))
    },
    [clearAt]
  )

  const focusStop = useCallback((path: string) => {
    setCursor(path)
    // Focus now where the stop is on screen, so the next key press already lands in it; a stop that appears with
    // this change (a new entry) is focused once rendered.
    if (focusStopElement(path)) {
      pendingFocus.current = null
      return
    }
    pendingFocus.current = path
    requestAnimationFrame(() => {
      if (pendingFocus.current === path && focusStopElement(path)) pendingFocus.current = null
    })
  }, [])

  // What is shown beside the fields: exact-quote and rubric checks always; the schema's messages once a submit
  // was tried; main's messages until the field changes.
  const issues = useMemo(() => {
    const own = attempted ? validateForm(instrument, data, view).issues : formChecks(instrument, data, view)
    return [...own, ...serverIssues, ...notes]
  }, [attempted, instrument, data, view, serverIssues, notes])

  const placed = useMemo(() => {
    const byStop = new Map<string, string[]>()
    const loose: string[] = []
    for (const issue of issues) {
      const stop = stopForIssue(stops, issue.path)
      const at = stop ? stop.path : null
      if (at === null) {
        loose.push(issue.path ? `${issue.path}: ${issue.message}` : issue.message)
        continue
      }
      const list = byStop.get(at) ?? []
      if (!list.includes(issue.message)) list.push(issue.message)
      byStop.set(at, list)
    }
    return { byStop, loose }
  }, [issues, stops])

  const stopAt = useCallback((path: string | null) => stops.find((s) => s.path === path), [stops])

  const quoteStopFor = useCallback(
    (path: string | null): Extract<Stop, { kind: 'field' }> | undefined => {
      const isQuote = (s: Stop | undefined): s is Extract<Stop, { kind: 'field' }> => s?.kind === 'field' && s.widget.kind === 'quote'
      const here = stopAt(path)
      if (isQuote(here)) return here
      const group = here?.group ?? null
      return stops.filter(isQuote).find((s) => group === null || s.group === group) ?? stops.find(isQuote)
    },
    [stopAt, stops]
  )

  /** Puts a quote in place; where the entry's side is still open and the quote comes from one side, sets it. */
  const applyQuote = useCallback(
    (path: string, widget: QuoteWidget, text: string, sourcePath: string | null) => {
      clearAt(path)
      update((d) => {
        let next = d
        const current = getAt(d, path)
        next = widget.many ? setAt(next, path, [...(Array.isArray(current) ? current : []), text]) : setAt(next, path, text)
        const side = sourcePath ? sideOfSource(sourcePath) : null
        const sidePath = joinPath(parentPath(path), 'side')
        if (side && parentPath(path) !== '' && getAt(d, sidePath) === null) next = setAt(next, sidePath, side)
        return next
      })
    },
    [clearAt, update]
  )

  const sourcesFor = useCallback(
    (path: string, widget: QuoteWidget) => quoteSources(widget, view, getAt(data, parentPath(path))),
    [view, data]
  )

  const addSelection = useCallback(
    (path: string) => {
      const stop = quoteStopFor(path)
      if (!stop || stop.widget.kind !== 'quote') return
      const widget = stop.widget
      const text = selectedText().replace(/\s+/g, ' ').trim()
      const sources = sourcesFor(stop.path, widget)
      if (!text) {
        setNotes((n) => [...n.filter((i) => i.path !== stop.path), { path: stop.path, message: 'Select words in the text first, then press e.' }])
        return
      }
      const sideFixed = sources.length < widget.source.length
      const problem = quoteProblem(widget, text, sources, sideFixed)
      if (problem) {
        setNotes((n) => [...n.filter((i) => i.path !== stop.path), { path: stop.path, message: `The selection is not exact: ${problem}` }])
        focusStop(stop.path)
        return
      }
      const from = sources.find((s) => containsSpan(s.text, text))
      applyQuote(stop.path, widget, text, from?.path ?? null)
      focusStop(stop.path)
    },
    [quoteStopFor, sourcesFor, applyQuote, focusStop]
  )

  const openPicker = useCallback(
    (path: string) => {
      const stop = quoteStopFor(path)
      if (!stop || stop.widget.kind !== 'quote') return
      setCursor(stop.path)
      setDialog({ kind: 'picker', path: stop.path, sources: sourcesFor(stop.path, stop.widget) })
    },
    [quoteStopFor, sourcesFor]
  )

  const pick = useCallback(
    (path: string, c: QuoteCandidate) => {
      const stop = stopAt(path)
      setDialog(null)
      if (stop?.kind === 'field' && stop.widget.kind === 'quote') applyQuote(path, stop.widget, c.text, c.source.path)
      focusStop(path)
    },
    [stopAt, applyQuote, focusStop]
  )

  const runCheck = useCallback(
    (path: string) => {
      const value = getAt(data, path)
      if (!isCodeValue(value) || !value.code.trim()) return
      const code = value.code
      setRunning((s) => new Set(s).add(path))
      api['checks.run']({ code }).then(
        (r) => {
          const output = [r.output, r.error ? `Error: ${r.error}` : '', r.timedOut ? '(stopped at the time limit)' : ''].filter(Boolean).join('\n')
          update((d) => {
            const now = getAt(d, path)
            // Only if the code is still what ran: the output must belong to the stored code.
            return isCodeValue(now) && now.code === code ? setAt(d, path, { code, output, ran_at: new Date().toISOString() }) : d
          })
          clearAt(path)
        },
        (e: Error) => setNotes((n) => [...n, { path, message: `The check did not run: ${e.message}` }])
      ).finally(() =>
        setRunning((s) => {
          const next = new Set(s)
          next.delete(path)
          return next
        })
      )
    },
    [data, update, clearAt]
  )

  const addEntry = useCallback(
    (listPath: string, widget: ListWidget) => {
      const current = getAt(data, listPath)
      const index = Array.isArray(current) ? current.length : 0
      update((d) => {
        const list = getAt(d, listPath)
        return setAt(d, listPath, [...(Array.isArray(list) ? list : []), emptyEntry(widget.widgets)])
      })
      const first = widget.widgets[0]
      focusStop(first ? joinPath(listPath, index, first.field) : joinPath(listPath, '+'))
    },
    [data, update, focusStop]
  )

  const removeEntry = useCallback(
    (entryPath: string) => {
      clearAt(entryPath)
      update((d) => removeAt(d, entryPath))
      focusStop(joinPath(parentPath(entryPath), '+'))
    },
    [clearAt, update, focusStop]
  )

  const submit = useCallback(async () => {
    if (busy) return
    setAttempted(true)
    setGeneral(null)
    const result = validateForm(instrument, data, view)
    if (result.issues.length) {
      const first = firstStopWithIssue(stops, result.issues)
      if (first) focusStop(first)
      setGeneral(`Not submitted: ${result.issues.length} field${result.issues.length === 1 ? ' needs' : 's need'} attention.`)
      return
    }
    setBusy(true)
    await autosave.discard()
    try {
      const res = await api['annotations.submit']({ assignmentId: item.assignmentId, judgement: result.judgement, activeMs: clock.read() })
      dropBackup(key)
      props.onSubmitted(res.annotationId)
    } catch (e) {
      // The answer stays on screen and goes back to being a draft.
      autosave.schedule(data)
      if (isAssayError(e) && e.details?.length) {
        const fromMain = e.details.map((d) => ({ path: d.field ?? '', message: d.message }))
        setServerIssues(fromMain)
        const first = firstStopWithIssue(stops, fromMain)
        if (first) focusStop(first)
      }
      setGeneral(`Not submitted: ${(e as Error).message}`)
    } finally {
      setBusy(false)
    }
  }, [busy, instrument, data, view, stops, focusStop, autosave, item.assignmentId, clock, key, props])

  const setStatus = useCallback(
    async (status: 'pending' | 'skipped' | 'flagged', reason?: string) => {
      setDialog(null)
      try {
        await autosave.flush()
        await api['queue.setStatus']({ assignmentId: item.assignmentId, status, ...(reason ? { reason } : {}) })
        props.onStatus(status)
      } catch (e) {
        setGeneral((e as Error).message)
      }
    },
    [autosave, item.assignmentId, props]
  )

  const scrollSource = (dy: number) => sourceRef.current?.scrollBy({ top: dy })

  const jumpSection = (step: 1 | -1) => {
    const box = sourceRef.current
    if (!box) return
    const rows = [...box.querySelectorAll<HTMLElement>('[data-section-row]')]
    if (!rows.length) return
    const top = box.scrollTop + 8
    let at = 0
    rows.forEach((r, i) => {
      if (r.offsetTop <= top) at = i
    })
    const target = rows[Math.max(0, Math.min(rows.length - 1, at + step))]
    if (target) box.scrollTo({ top: target.offsetTop })
  }

  const onKey = (e: KeyboardEvent) => {
    if (dialog || e.defaultPrevented) return
    const typing = isTypingTarget(e.target)
    const ctrl = e.ctrlKey || e.metaKey
    if (ctrl && e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault()
      void submit()
      return
    }
    if (ctrl && e.shiftKey && e.key === 'Enter') {
      const stop = stopAt(cursor)
      if (stop?.kind === 'field' && stop.widget.kind === 'code') {
        e.preventDefault()
        runCheck(stop.path)
      }
      return
    }
    if (e.key === 'Tab' && !ctrl && !e.altKey) {
      e.preventDefault()
      const next = moveStop(stops, cursor, e.shiftKey ? -1 : 1)
      if (next) focusStop(next)
      return
    }
    if (e.altKey && (e.key === 'ArrowRight' || e.key === 'ArrowLeft')) {
      e.preventDefault()
      props.onNavigate(e.key === 'ArrowRight' ? 1 : -1)
      return
    }
    if (typing) {
      if (e.key === 'Escape') {
        e.preventDefault()
        const holder = (e.target as HTMLElement).closest<HTMLElement>('[data-stop]')
        if (holder) holder.focus()
        else (e.target as HTMLElement).blur()
      }
      return
    }
    if (ctrl && !e.shiftKey && e.key.toLowerCase() === 'z') {
      e.preventDefault()
      props.onUndo()
      return
    }
    if (ctrl || e.altKey) return

    const stop = stopAt(cursor)
    if (stop) {
      const answer = answerForKey(stop, e.key)
      if (answer) {
        e.preventDefault()
        setValue(stop.path, answer.value)
        // Move on where the next field is also answered without typing; a text box is entered with Tab.
        const next = moveStop(stops, stop.path, 1)
        const nextStop = stopAt(next)
        if (next && next !== stop.path && nextStop && !isTextEntry(nextStop)) focusStop(next)
        return
      }
      if (stop.kind === 'add' && (e.key === 'Enter' || e.key === '+')) {
        e.preventDefault()
        addEntry(stop.listPath, stop.widget)
        return
      }
      if (stop.kind === 'field' && stop.widget.kind === 'quote') {
        if (e.key === 'Enter') {
          e.preventDefault()
          document.querySelector<HTMLElement>(`[data-stop="${CSS.escape(stop.path)}"] .quote-text`)?.focus()
          return
        }
        if (e.key === 'Delete' || e.key === 'Backspace') {
          e.preventDefault()
          const value = getAt(data, stop.path)
          setValue(stop.path, stop.widget.many ? (Array.isArray(value) ? value.slice(0, -1) : []) : '')
          return
        }
      }
      if (isTextEntry(stop) && e.key === 'Enter') {
        e.preventDefault()
        focusStopElement(stop.path)
        return
      }
      if (stop.kind === 'field' && stop.widget.kind === 'code' && e.key === 'r') {
        e.preventDefault()
        runCheck(stop.path)
        return
      }
      if (e.key === 'Delete' && stop.group && /\.\d+$/.test(stop.group)) {
        const list = parentPath(stop.group)
        if (stops.some((s) => s.kind === 'add' && s.listPath === list)) {
          e.preventDefault()
          removeEntry(stop.group)
          return
        }
      }
    }

    const go = (path: string | null) => (path ? focusStop(path) : false)
    const handled = (() => {
      switch (e.key) {
        case 'j':
          return go(moveStop(stops, cursor, 1))
        case 'k':
          return go(moveStop(stops, cursor, -1))
        case 'J':
          return go(moveGroup(stops, cursor, 1))
        case 'K':
          return go(moveGroup(stops, cursor, -1))
        case 'n':
          return props.onNavigate(1)
        case 'p':
          return props.onNavigate(-1)
        case 's':
          return setDialog({ kind: 'reason', action: 'skip' })
        case 'f':
          return setDialog({ kind: 'reason', action: 'flag' })
        case 'h':
          return toggleHistory()
        case '?':
          return setLegendOpen((v) => !v)
        case 'q':
          return props.onExit()
        case 'e':
          return addSelection(cursor ?? '')
        case '/':
          return openPicker(cursor ?? '')
        case '+': {
          const add = stops.find((s): s is Extract<Stop, { kind: 'add' }> => s.kind === 'add' && (stop?.group == null || stop.group.startsWith(`${s.listPath}.`)))
          return add ? addEntry(add.listPath, add.widget) : false
        }
        case ']':
          return jumpSection(1)
        case '[':
          return jumpSection(-1)
        case 'ArrowDown':
          return scrollSource(120)
        case 'ArrowUp':
          return scrollSource(-120)
        case 'PageDown':
        case ' ':
          return scrollSource((sourceRef.current?.clientHeight ?? 600) * 0.85)
        case 'PageUp':
          return scrollSource(-(sourceRef.current?.clientHeight ?? 600) * 0.85)
        default:
          return false
      }
    })()
    if (handled !== false) e.preventDefault()
  }
  const onKeyRef = useRef(onKey)
  onKeyRef.current = onKey
  // Attached while the item is committed, before it is painted: a key pressed the moment it shows is not lost.
  useLayoutEffect(() => {
    const listener = (e: KeyboardEvent) => onKeyRef.current(e)
    window.addEventListener('keydown', listener)
    return () => window.removeEventListener('keydown', listener)
  }, [])

  // Focus the first field when the item opens, so keys answer it at once.
  const [firstStop] = useState(cursor)
  useEffect(() => {
    if (firstStop) focusStop(firstStop)
  }, [firstStop, focusStop])

  const formApi: FormApi = {
    instrument,
    view,
    data,
    cursor,
    setValue,
    update,
    noteFocus: setCursor,
    focusStop,
    messagesAt: (path) => placed.byStop.get(path) ?? [],
    addEntry,
    removeEntry,
    openPicker,
    addSelection,
    runCheck,
    running
  }

  const pair = isPairView(view)
  const hasList = stops.some((s) => s.kind === 'add')
  const current = stopAt(cursor)

  return (
    <div className={pair ? 'annotate-item pair-layout' : 'annotate-item'} data-testid="item" data-assignment={item.assignmentId} data-instrument={item.instrument}>
      <header className="annotate-bar">
        <button type="button" tabIndex={-1} className="link" onClick={props.onExit}>
          ← Queues <kbd>q</kbd>
        </button>
        <strong>{props.queueTitle}</strong>
        <span data-testid="item-position">
          Item {item.index + 1} of {item.total}
        </span>
        <span className="muted">
          ({props.progress.done}/{props.progress.total} done)
        </span>
        <StatusBadge item={item} />
        <SaveIndicator state={autosave.state} error={autosave.error} restored={initial.source === 'backup' || initial.source === 'draft'} />
        <ActiveTime clock={clock} />
        <span className="bar-actions">
          <button type="button" tabIndex={-1} onClick={() => props.onNavigate(-1)}>
            ‹ Prev
          </button>
          <button type="button" tabIndex={-1} onClick={() => props.onNavigate(1)}>
            Next ›
          </button>
          <button type="button" tabIndex={-1} onClick={() => setDialog({ kind: 'reason', action: 'skip' })}>
            Skip <kbd>s</kbd>
          </button>
          <button type="button" tabIndex={-1} onClick={() => setDialog({ kind: 'reason', action: 'flag' })}>
            Flag <kbd>f</kbd>
          </button>
          <button type="button" tabIndex={-1} onClick={toggleHistory} aria-pressed={showHistory}>
            History <kbd>h</kbd>
          </button>
          <button type="button" tabIndex={-1} className="primary" disabled={busy} onClick={() => void submit()} data-testid="submit">
            Submit <kbd>Ctrl+↵</kbd>
          </button>
        </span>
      </header>
      <div className="annotate-body">
        <section className="annotate-source" ref={sourceRef} aria-label="Item">
          <SourceView view={view} widgets={widgets} />
        </section>
        <aside className="annotate-form" aria-label="Answer">
          {(item.status === 'skipped' || item.status === 'flagged') && (
            <div className="status-note">
              {item.status === 'skipped' ? 'Skipped' : 'Flagged'}
              {item.statusReason ? `: ${item.statusReason}` : ''}.{' '}
              <button type="button" tabIndex={-1} onClick={() => void setStatus('pending')}>
                Put back in the queue
              </button>
            </div>
          )}
          {item.answer && (
            <div className="status-note">
              Answered {new Date(item.answer.createdAt).toLocaleString()}. Submitting again records a new revision.
            </div>
          )}
          {instrument.form.rubric && (
            <details className="rubric-text-box" open>
              <summary>Rubric</summary>
              <Markdown text={instrument.form.rubric} />
            </details>
          )}
          {general && (
            <p className="form-error" role="alert" data-testid="form-error">
              {general}
            </p>
          )}
          {placed.loose.map((m) => (
            <p key={m} className="field-issue" role="alert" data-testid="field-issue" data-path="">
              {m}
            </p>
          ))}
          <FormContext.Provider value={formApi}>
            <form className="annotate-fields" onSubmit={(e) => e.preventDefault()} data-cursor={cursor ?? ''}>
              <FormRenderer widgets={widgets} />
            </form>
          </FormContext.Provider>
          {showHistory && <HistoryPanel assignmentId={item.assignmentId} version={historyVersion} />}
          {showHistory && (
            <button type="button" tabIndex={-1} className="link" onClick={() => setHistoryVersion((v) => v + 1)}>
              Refresh history
            </button>
          )}
        </aside>
      </div>
      <Legend stop={current} hasPair={pair} hasList={hasList} expanded={legendOpen} />
      {dialog?.kind === 'reason' && (
        <ReasonDialog action={dialog.action} onCancel={() => setDialog(null)} onConfirm={(reason) => void setStatus(dialog.action === 'skip' ? 'skipped' : 'flagged', reason)} />
      )}
      {dialog?.kind === 'picker' && (
        <QuotePicker
          sources={dialog.sources}
          onCancel={() => {
            setDialog(null)
            focusStop(dialog.path)
          }}
          onPick={(c) => pick(dialog.path, c)}
        />
      )}
    </div>
  )
}

/** The first field on screen, top to bottom, that one of the issues concerns. */
function firstStopWithIssue(stops: ReadonlyArray<Stop>, issues: ReadonlyArray<FieldIssue>): string | undefined {
  const concerned = new Set(issues.map((i) => stopForIssue(stops, i.path)?.path).filter((p): p is string => p !== undefined))
  return stops.find((s) => concerned.has(s.path))?.path
}

function StatusBadge({ item }: { item: BlindedItem }) {
  return (
    <span className={`badge status-${item.status}`} data-testid="item-status">
      {item.status}
    </span>
  )
}

const SAVE_TEXT: Record<SaveState, string> = {
  clean: '',
  dirty: 'Unsaved changes…',
  saving: 'Saving…',
  saved: 'Saved',
  error: 'Not saved, retrying (kept in this browser)'
}

function SaveIndicator({ state, error, restored }: { state: SaveState; error: string | null; restored: boolean }) {
  const text = state === 'clean' ? (restored ? 'Draft restored' : 'No changes') : SAVE_TEXT[state]
  return (
    <span className={`save-state save-${state}`} data-testid="save-state" data-state={state} title={error ?? undefined} aria-live="polite">
      {text}
    </span>
  )
}

function ActiveTime({ clock }: { clock: ActiveClock }) {
  const [, tick] = useState(0)
  useEffect(() => {
    const t = setInterval(() => tick((n) => n + 1), 1000)
    return () => clearInterval(t)
  }, [])
  return (
    <span className={clock.isIdle() ? 'active-time idle' : 'active-time'} title="Active time on this item (stops after 60 s without input)">
      active {formatDuration(clock.read())}
      {clock.isIdle() ? ' (paused)' : ''}
    </span>
  )
}
