import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import type { BlindedItem } from '../../../shared/contract/annotation-schemas'
import { getInstrument } from '../../../shared/instruments'
import { writtenTexts } from '../../../shared/instruments/written-texts'
import { api } from '../api'
import { Markdown } from '../components/Markdown'
import { useWorkbench } from '../workbench-state'
import { ActiveClock } from './clock'
import { QuotePicker, ReasonDialog } from './Dialogs'
import { backupKey, writeBackup } from './draft-backup'
import { FormContext } from './form/context'
import { FormRenderer } from './form/FormRenderer'
import { HistoryPanel } from './HistoryPanel'
import { ItemBar } from './ItemBar'
import { initialForm } from './item-initial'
import { SetAsideNotice } from './SetAsideNotice'
import { lastItemKey, writeLastItemAfterPaint } from './last-item'
import { Legend } from './Legend'
import type { QuoteSource } from './quotes'
import { SourceView } from './source/SourceView'
import { isPairView } from '../../../shared/markdown/view-texts'
import { useAnnotate } from './annotate-state'
import type { Submission, SubmitFailure } from './submission'
import { useActiveInput } from './use-active-input'
import { useAutosave } from './use-autosave'
import { useEvidenceHighlight } from './use-evidence-highlight'
import { firstStopWithIssue } from './use-field-issues'
import { useFormState } from './use-form-state'
import { useItemKeys } from './use-item-keys'
import { validateForm } from './validate'

export interface ItemWorkspaceProps {
  item: BlindedItem
  queueTitle: string
  /**
   * The item is the one on screen. An item held ready behind it (the next one, built ahead so that submitting shows
   * it at once) is not: it takes no keys, counts no time and saves nothing until it becomes live. (What holds it
   * keeps it out of sight, reach and the accessibility tree.)
   */
  live: boolean
  onNavigate(step: 1 | -1): void
  /** Takes the answer; the queue shows the next item at once and commits this one in the background. */
  onSubmit(submission: Submission): void
  /** Set when this item is shown again because main did not commit its answer. */
  failure?: SubmitFailure | undefined
  onStatus(status: 'pending' | 'skipped' | 'flagged'): void
  onUndo(): void
  onExit(): void
}

type Dialog = null | { kind: 'reason'; action: 'skip' | 'flag' } | { kind: 'picker'; path: string; sources: QuoteSource[] }

/**
 * One item being annotated: the blinded view beside the form built from the instrument, with autosave, active
 * time, history and the item's keys (use-item-keys), all of which start when the item is `live`. Memoised: the queue
 * changes which item is drawn without rendering either again.
 */
export const ItemWorkspace = memo(function ItemWorkspace(props: ItemWorkspaceProps) {
  const { item, live } = props
  const instrument = getInstrument(item.instrument)
  const view = item.view
  const widgets = instrument.form.widgets
  const projectId = useWorkbench((s) => s.info?.projectId ?? 'project')
  const annotatorId = useWorkbench((s) => s.session?.annotator?.id ?? 0)
  const key = backupKey(projectId, annotatorId, item.assignmentId)

  const [initial] = useState(() =>
    props.failure
      ? { data: props.failure.data, activeMs: props.failure.activeMs, source: 'backup' as const, setAside: null }
      : initialForm(item, key, () => instrument.form.empty(view), (data) => writtenTexts(instrument, data))
  )
  // An item built ahead of being shown keeps its clock stopped until then; it starts in the render that shows the
  // item, so the bar never shows the time it waited.
  const [clock] = useState(() => {
    const c = new ActiveClock(initial.activeMs)
    if (!live) c.pause()
    return c
  })
  const [started, setStarted] = useState(live)
  if (live && !started) {
    clock.restart()
    setStarted(true)
  }
  const [dialog, setDialog] = useState<Dialog>(null)
  const itemRef = useRef<HTMLDivElement>(null)
  const openPickerDialog = useCallback((path: string, sources: QuoteSource[]) => setDialog({ kind: 'picker', path, sources }), [])
  const form = useFormState({
    instrument,
    view,
    initial: () => initial.data,
    scope: itemRef,
    ...(props.failure ? { initialIssues: props.failure.issues ?? [] } : {}),
    openPickerDialog
  })
  const { data, stops, cursor, placed, quotes, focusStop, setValue, addEntry, removeEntry, runCheck, setAttempted } = form
  const autosave = useAutosave(item.assignmentId, key, clock, item.layout)
  const [general, setGeneral] = useState<string | null>(props.failure ? `Not saved: ${props.failure.message}` : null)
  const submitted = useRef(false)
  const showHistory = useAnnotate((st) => st.showHistory)
  const toggleHistory = useAnnotate((st) => st.toggleHistory)
  const [historyVersion, setHistoryVersion] = useState(0)
  const [legendOpen, setLegendOpen] = useState(false)
  const sourceRef = useRef<HTMLElement>(null)
  const firstData = useRef(true)

  // Save every change: a local copy at once, main after the debounce. A draft restored from the local copy is
  // newer than main's, so it is saved as well.
  const { schedule } = autosave
  useEffect(() => {
    if (!live) return
    if (firstData.current) {
      firstData.current = false
      if (initial.source !== 'backup') return
    }
    schedule(data)
  }, [live, data, schedule, initial.source])

  useActiveInput(clock, live)

  // In the commit that shows the item (only noted here; storage is written after the paint): an item that arrived by
  // a fetch is committed without its passive effects, and a reload in that gap would return to the item before.
  useLayoutEffect(() => {
    if (live) writeLastItemAfterPaint(lastItemKey(projectId, annotatorId), { instrument: item.instrument, assignmentId: item.assignmentId })
  }, [live, projectId, annotatorId, item.instrument, item.assignmentId])

  useEvidenceHighlight(sourceRef, widgets, view, data, cursor, live)

  const submit = useCallback(async () => {
    if (submitted.current) return
    const result = validateForm(instrument, data, view)
    if (result.issues.length) {
      setAttempted(true)
      const first = firstStopWithIssue(stops, result.issues)
      if (first) focusStop(first)
      setGeneral(`Not submitted: ${result.issues.length} field${result.issues.length === 1 ? ' needs' : 's need'} attention.`)
      return
    }
    // Taken once, without rendering this item again: the queue shows the next one in this very frame.
    submitted.current = true
    // Draft saves still pending are dropped (those on their way land first); the browser's copy of the answer stays
    // until main has committed it, and a refused commit reopens this item with it (QueueRunner).
    const after = autosave.discard()
    const activeMs = clock.read()
    writeBackup(key, { data, activeMs, at: new Date().toISOString(), layout: item.layout })
    props.onSubmit({ judgement: result.judgement, data, activeMs, backupKey: key, after })
  }, [setAttempted, instrument, data, view, stops, focusStop, autosave, clock, key, props])

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

  useItemKeys({
    blocked: dialog !== null,
    stops,
    cursor,
    data,
    sourceRef,
    itemRef,
    focusStop,
    setValue,
    addEntry,
    removeEntry,
    addSelection: quotes.addSelection,
    openPicker: quotes.openPicker,
    runCheck,
    submit: () => void submit(),
    navigate: props.onNavigate,
    undo: props.onUndo,
    exit: props.onExit,
    askReason: (action) => setDialog({ kind: 'reason', action }),
    toggleHistory,
    toggleLegend: () => setLegendOpen((v) => !v)
  }, live)

  // Focus the first field when the item opens, so keys answer it at once.
  const [firstStop] = useState(cursor)
  useEffect(() => {
    if (live && firstStop) focusStop(firstStop)
  }, [live, firstStop, focusStop])

  const pair = isPairView(view)
  const hasList = stops.some((s) => s.kind === 'add')
  const current = stops.find((s) => s.path === cursor)

  return (
    <div
      ref={itemRef}
      className={pair ? 'annotate-item pair-layout' : 'annotate-item'}
      data-testid={live ? 'item' : 'item-held'}
      data-assignment={item.assignmentId}
      data-instrument={item.instrument}
    >
      <ItemBar
        item={item}
        queueTitle={props.queueTitle}
        save={{ state: autosave.state, error: autosave.error, restored: initial.source === 'backup' || initial.source === 'draft' }}
        clock={clock}
        live={live}
        showHistory={showHistory}
        onExit={props.onExit}
        onNavigate={props.onNavigate}
        onReason={(action) => setDialog({ kind: 'reason', action })}
        onToggleHistory={toggleHistory}
        onSubmit={() => void submit()}
      />
      <div className="annotate-body">
        <section className="annotate-source" ref={sourceRef} aria-label="Item" tabIndex={0}>
          <SourceView view={view} widgets={widgets} live={live} />
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
          {initial.setAside && <SetAsideNotice at={initial.setAside.at} texts={initial.setAside.texts} />}
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
          <FormContext.Provider value={form.api}>
            <form className="annotate-fields" onSubmit={(e) => e.preventDefault()} data-cursor={cursor ?? ''}>
              <FormRenderer widgets={widgets} />
            </form>
          </FormContext.Provider>
          {showHistory && live && <HistoryPanel assignmentId={item.assignmentId} version={historyVersion} widgets={widgets} view={view} />}
          {showHistory && live && (
            <button type="button" tabIndex={-1} className="link" onClick={() => setHistoryVersion((v) => v + 1)}>
              Refresh history
            </button>
          )}
        </aside>
      </div>
      <Legend stop={current} stops={stops} hasPair={pair} hasList={hasList} expanded={legendOpen} />
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
          onPick={(c) => {
            setDialog(null)
            quotes.pick(dialog.path, c)
          }}
        />
      )}
    </div>
  )
})
