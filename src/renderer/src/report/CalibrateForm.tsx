import { useState } from 'react'
import { evaluatedOn, fittedOn, type Report } from '../../../shared/report'
import { api } from '../api'
import { Choices } from '../components/Choices'
import { inFormWords } from './calibrate-words'

const METHODS = [
  { id: 'threshold', label: 'Threshold (a cut on the score, chosen on dev)' },
  { id: 'platt', label: 'Platt scaling (probability of the human label)' },
  { id: 'isotonic', label: 'Isotonic regression (onto the human scale)' },
  { id: 'both-orders', label: 'Both display orders (MT-Bench rule and averaging)' }
] as const
type Method = (typeof METHODS)[number]['id']

/**
 * Fits a recalibration of one judge from the report screen, as `assay calibrate` does: learned on the fit split,
 * stored in the project, evaluated on the eval split; the report then shows it beside the raw judge.
 */
export function CalibrateForm({ report, onCalibrated }: { report: Report; onCalibrated: () => void }) {
  const judges = report.sources.filter((s) => s.kind === 'judge_run' || s.kind === 'model_import')
  const [open, setOpen] = useState(false)
  const [source, setSource] = useState(judges[0]?.id ?? '')
  const [method, setMethod] = useState<Method>('threshold')
  const [field, setField] = useState('')
  const [target, setTarget] = useState('')
  const [positive, setPositive] = useState('')
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null)
  if (judges.length === 0) return null
  const submit = () => {
    setBusy(true)
    setMessage(null)
    api['report.calibrate']({
      instrument: report.instrument.id,
      source: source || (judges[0]?.id ?? ''),
      method,
      ...(field.trim() ? { field: field.trim() } : {}),
      ...(target.trim() ? { target: target.trim() } : {}),
      ...(positive.trim() ? { positive: positive.trim() } : {}),
      fitSplit: 'dev',
      evalSplit: 'test'
    }).then(
      (r) => {
        setBusy(false)
        // Named as every table names the fit: its judge, its method and its number.
        const rawName = (id: string) => report.sources.find((s) => s.id === id)?.name ?? id
        const described = (f: (typeof r.fits)[number]) => `${rawName(f.raw_source)} · ${f.label} · fit ${f.fit_id} (fitted on ${fittedOn(f)}; evaluated on ${evaluatedOn(f)})`
        const fresh = r.fits.filter((f) => !r.already_stored.includes(f.fit_id))
        const again = r.fits.filter((f) => r.already_stored.includes(f.fit_id))
        // The same fit asked for again is shown as the one stored, never stored twice.
        const parts = [fresh.length ? `Stored ${fresh.map(described).join(', ')}.` : '', again.length ? `Already stored with the same specification, fit items and parameters: ${again.map(described).join(', ')}; not stored again.` : '']
        setMessage({ ok: true, text: parts.filter(Boolean).join(' ') })
        onCalibrated()
      },
      (e: Error) => {
        setBusy(false)
        setMessage({ ok: false, text: inFormWords(e.message) })
      }
    )
  }
  return (
    <div className="calibrate-form" data-testid="calibrate-form">
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        Calibrate a judge…
      </button>
      {open && (
        <form
          onSubmit={(e) => {
            e.preventDefault()
            submit()
          }}
        >
          <p className="muted small">Fitted on the dev split only, stored in the project, and evaluated on the test split beside the raw judge.</p>
          <label>
            Judge{' '}
            <select value={source} onChange={(e) => setSource(e.target.value)}>
              <Choices values={judges.map((j) => ({ value: j.id, label: j.name }))} />
            </select>
          </label>
          <label>
            Method{' '}
            <select value={method} onChange={(e) => setMethod(e.target.value as Method)}>
              <Choices values={METHODS.map((m) => ({ value: m.id, label: m.label }))} />
            </select>
          </label>
          {method !== 'both-orders' && (
            <>
              <label>
                Score field <input value={field} onChange={(e) => setField(e.target.value)} placeholder="first numeric field" size={14} />
              </label>
              <label>
                Human label <input value={target} onChange={(e) => setTarget(e.target.value)} placeholder="default" size={10} />
              </label>
              <label>
                Counts as yes <input value={positive} onChange={(e) => setPositive(e.target.value)} placeholder="true, a category, >=k" size={12} />
              </label>
            </>
          )}
          <button type="submit" disabled={busy}>
            {busy ? 'Fitting…' : 'Fit and evaluate'}
          </button>
          {message && (
            <p role={message.ok ? 'status' : 'alert'} className={message.ok ? 'small' : 'report-error'}>
              {message.text}
            </p>
          )}
        </form>
      )}
    </div>
  )
}
