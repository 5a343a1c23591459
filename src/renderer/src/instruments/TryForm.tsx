import { useState } from 'react'
import type { OperationOutput } from '../../../shared/contract/operations'
import type { AnyInstrument } from '../../../shared/instruments'
import { QuotePicker } from '../annotate/Dialogs'
import { FormContext } from '../annotate/form/context'
import { FormRenderer } from '../annotate/form/FormRenderer'
import { firstStopWithIssue } from '../annotate/use-field-issues'
import { validateForm } from '../annotate/validate'
import { useFinalForm } from '../adjudicate/use-final-form'

type Check = NonNullable<OperationOutput<'instruments.preview'>['check']>

export interface TryFormProps {
  instrument: AnyInstrument
  view: Record<string, unknown>
  /** Checks an answer in main, as a submission is checked; nothing is written. */
  check(answer: unknown): Promise<Check | null>
}

/** The instrument's own form, filled in as a trial: checked by the form, then by main, and shown as it would be stored. */
export function TryForm({ instrument, view, check }: TryFormProps) {
  const form = useFinalForm(instrument, view, () => instrument.form.empty(view))
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string; stored?: unknown } | null>(null)
  const [busy, setBusy] = useState(false)

  const run = async () => {
    const local = validateForm(instrument, form.data, view)
    if (local.issues.length) {
      form.setAttempted(true)
      const first = firstStopWithIssue(form.stops, local.issues)
      if (first) form.focusStop(first)
      return setOutcome({ ok: false, text: `The form refuses it: ${local.issues.length} field${local.issues.length === 1 ? ' needs' : 's need'} attention.` })
    }
    setBusy(true)
    try {
      const r = await check(local.judgement)
      if (!r) return setOutcome(null)
      if (r.ok) return setOutcome({ ok: true, text: 'Accepted as a submission would be. Stored as:', stored: r.canonical })
      const issues = r.issues.map((i) => ({ path: i.field, message: i.message }))
      form.setServerIssues(issues)
      setOutcome({ ok: false, text: `Main refuses it: ${r.issues.map((i) => i.message).join('; ')}` })
    } catch (e) {
      setOutcome({ ok: false, text: (e as Error).message })
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="final-form try-form" aria-labelledby="try-form-title" data-testid="try-form">
      <h3 id="try-form-title">The form, to try</h3>
      <p className="muted small">Nothing is saved: check an answer to see what main would say and what it would store.</p>
      {form.placed.loose.map((m) => (
        <p key={m} className="field-issue" role="alert" data-testid="field-issue" data-path="">
          {m}
        </p>
      ))}
      <div className="final-fields" data-cursor={form.cursor ?? ''}>
        <FormContext.Provider value={form.api}>
          <FormRenderer widgets={instrument.form.widgets} />
        </FormContext.Provider>
      </div>
      <div className="row">
        <button className="primary" disabled={busy} onClick={() => void run()} data-testid="try-check">
          Check the answer
        </button>
        <button onClick={() => (form.replace(instrument.form.empty(view)), setOutcome(null))}>Clear</button>
      </div>
      {outcome && (
        <div className={outcome.ok ? 'result' : 'failure'} role="status" data-testid="try-outcome">
          <p>{outcome.text}</p>
          {outcome.stored !== undefined && <pre>{JSON.stringify(outcome.stored, null, 2)}</pre>}
        </div>
      )}
      {form.picker && (
        <QuotePicker
          sources={form.picker.sources}
          onCancel={() => form.closePicker()}
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
