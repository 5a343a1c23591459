import { useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react'
import type { AdjudicationItem } from '../../../shared/contract/packet-operations'
import { isAssayError } from '../../../shared/errors'
import type { AnyInstrument } from '../../../shared/instruments/types'
import { api } from '../api'
import { QuotePicker } from '../annotate/Dialogs'
import { FormContext } from '../annotate/form/context'
import { FormRenderer } from '../annotate/form/FormRenderer'
import { firstStopWithIssue } from '../annotate/use-field-issues'
import { useItemKeys } from '../annotate/use-item-keys'
import { validateForm } from '../annotate/validate'
import { Markdown } from '../components/Markdown'
import { useFinalForm } from './use-final-form'

const CURATOR_KEY = 'assay.curator-name'

function rememberedCurator(): string {
  try {
    return localStorage.getItem(CURATOR_KEY) ?? ''
  } catch {
    return ''
  }
}

function rememberCurator(name: string): void {
  try {
    localStorage.setItem(CURATOR_KEY, name)
  } catch {
    // Private windows may refuse storage; the name is asked again next time.
  }
}

export interface FinalLabelFormProps {
  instrument: AnyInstrument
  item: AdjudicationItem
  /** The answer to start from, chosen beside an annotator's answer; a new object each time it is chosen. */
  start: { judgement: unknown; from: string } | null
  onRecorded(message: string): void
  /** n/p and Alt+→/←: the next or previous item of the list. */
  onNavigate(step: 1 | -1): void
}

/**
 * The final label, entered with the instrument's own form: the same widgets and keys as annotation (digits, side
 * keys, Tab/j/k, e and / for quotes, r for a worked check, Ctrl+Enter to record), in the adjudication view's frame.
 * The keys act while the focus is inside the form; Tab past its last field leaves it for the reason.
 */
export function FinalLabelForm(props: FinalLabelFormProps) {
  const { instrument, item } = props
  const view = item.view
  const form = useFinalForm(instrument, view, () => item.current?.judgement ?? instrument.form.empty(view))
  const [startedFrom, setStartedFrom] = useState<string | null>(item.current ? 'the current decision' : null)
  const [appliedStart, setAppliedStart] = useState(props.start)
  const [reason, setReason] = useState('')
  const [curator, setCurator] = useState(rememberedCurator)
  const [general, setGeneral] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [inside, setInside] = useState(false)
  const box = useRef<HTMLDivElement>(null)
  const reasonBox = useRef<HTMLTextAreaElement>(null)

  // Starting from an annotator's answer replaces the whole form (chosen with the button beside that answer).
  if (props.start !== appliedStart) {
    setAppliedStart(props.start)
    if (props.start) {
      form.replace(props.start.judgement)
      setStartedFrom(props.start.from)
      setGeneral(null)
    }
  }

  const record = async () => {
    if (busy) return
    setGeneral(null)
    const result = validateForm(instrument, form.data, view)
    if (result.issues.length) {
      form.setAttempted(true)
      const first = firstStopWithIssue(form.stops, result.issues)
      if (first) form.focusStop(first)
      setGeneral(`Not recorded: ${result.issues.length} field${result.issues.length === 1 ? ' needs' : 's need'} attention.`)
      return
    }
    if (!reason.trim()) {
      reasonBox.current?.focus()
      return setGeneral('Not recorded: say why this is the final label.')
    }
    if (!curator.trim()) return setGeneral('Not recorded: say who decides (the name is recorded with the decision).')
    rememberCurator(curator.trim())
    setBusy(true)
    try {
      const r = await api['adjudication.record']({
        instrument: instrument.id,
        itemId: item.itemId,
        judgement: result.judgement,
        reason,
        curator,
        basedOn: item.answers.map((a) => a.annotationId),
        expectedCurrent: item.current?.id ?? null
      })
      props.onRecorded(r.supersedes ? 'Recorded; it replaces the earlier decision (kept in the history).' : 'Recorded.')
    } catch (e) {
      if (isAssayError(e) && e.details?.length) {
        const fromMain = e.details.map((d) => ({ path: d.field ?? '', message: d.message }))
        form.setServerIssues(fromMain)
        const first = firstStopWithIssue(form.stops, fromMain)
        if (first) form.focusStop(first)
      }
      setGeneral(`Not recorded: ${(e as Error).message}`)
    } finally {
      setBusy(false)
    }
  }

  useItemKeys({
    blocked: !inside || form.picker !== null,
    stops: form.stops,
    cursor: form.cursor,
    data: form.data,
    sourceRef: { current: null },
    focusStop: form.focusStop,
    setValue: form.api.setValue,
    addEntry: form.api.addEntry,
    removeEntry: form.api.removeEntry,
    addSelection: form.api.addSelection,
    openPicker: form.api.openPicker,
    runCheck: form.api.runCheck,
    submit: () => void record(),
    navigate: props.onNavigate,
    undo: () => undefined,
    exit: () => reasonBox.current?.focus(),
    askReason: () => undefined,
    toggleHistory: () => undefined,
    toggleLegend: () => undefined
  })

  // Tab on the last field (Shift+Tab on the first) leaves the form as usual, instead of cycling inside it.
  const onKeyDownCapture = (e: ReactKeyboardEvent) => {
    if (e.key !== 'Tab' || e.ctrlKey || e.altKey || e.metaKey) return
    const paths = form.stops.map((s) => s.path)
    const edge = e.shiftKey ? paths[0] : paths[paths.length - 1]
    if (form.cursor === edge || form.cursor === null) e.stopPropagation()
  }

  return (
    <section className="final-form" data-testid="final-form" aria-labelledby="final-form-title">
      <h3 id="final-form-title">{item.current ? 'Change the final label' : 'Final label'}</h3>
      <p className="muted small" data-testid="started-from">
        {startedFrom ? `Started from ${startedFrom}; change what you decide differently.` : 'Empty: answer it yourself, or start from an answer above.'}
      </p>
      {instrument.form.rubric && (
        <details className="rubric-text-box">
          <summary>Rubric</summary>
          <Markdown text={instrument.form.rubric} />
        </details>
      )}
      {form.placed.loose.map((m) => (
        <p key={m} className="field-issue" role="alert" data-testid="field-issue" data-path="">
          {m}
        </p>
      ))}
      <div
        ref={box}
        className="final-fields"
        data-cursor={form.cursor ?? ''}
        onFocus={() => setInside(true)}
        onBlur={(e) => {
          if (!box.current?.contains(e.relatedTarget as Node | null)) setInside(false)
        }}
        onKeyDownCapture={onKeyDownCapture}
      >
        <FormContext.Provider value={form.api}>
          <FormRenderer widgets={instrument.form.widgets} />
        </FormContext.Provider>
        <p className="final-keys">
          Keys in the form: <kbd>Tab</kbd>/<kbd>j</kbd>/<kbd>k</kbd> field · the digits and letters on the buttons answer · <kbd>e</kbd> quote the
          selection · <kbd>/</kbd> find a quote · <kbd>r</kbd> run a check · <kbd>n</kbd>/<kbd>p</kbd> next or previous item · <kbd>Ctrl</kbd>+
          <kbd>Enter</kbd> record
        </p>
      </div>
      <form
        className="final-meta"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          void record()
        }}
      >
        <label>
          Reason <span className="muted small">(required)</span>
          <textarea
            ref={reasonBox}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            onKeyDown={(e) => {
              if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') {
                e.preventDefault()
                void record()
              }
            }}
            aria-required="true"
          />
        </label>
        <div className="row">
          <label>
            Decided by <input value={curator} onChange={(e) => setCurator(e.target.value)} aria-required="true" />
          </label>
          <button type="submit" className="primary" disabled={busy} data-testid="record">
            Record
          </button>
        </div>
        {general && (
          <p className="failure" role="alert" data-testid="form-error">
            {general}
          </p>
        )}
      </form>
      {form.picker && (
        <QuotePicker
          sources={form.picker.sources}
          onCancel={() => {
            const path = form.picker?.path
            form.closePicker()
            if (path) form.focusStop(path)
          }}
          onPick={(c) => {
            const path = form.picker!.path
            form.closePicker()
            form.pick(path, c)
          }}
        />
      )}
    </section>
  )
}
