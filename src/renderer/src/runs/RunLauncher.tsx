import { useEffect, useMemo, useState } from 'react'
import type { JudgeSummary, RunEstimate, RunSpec, TemplateSummary } from '../../../shared/contract/run-operations'
import { allInstruments, type InstrumentId } from '../../../shared/instruments'
import { SPLITS, type Split } from '../../../shared/items/labels'
import { api } from '../api'
import { Choices } from '../components/Choices'
import { useWorkbench } from '../workbench-state'
import { formatCount, formatUsd } from './format'

/** Instruments a model can be asked: those with a prompt template. */
/** Instruments models are asked, the project's own included (read when drawn: those are known after start-up). */
const askable = () => allInstruments().filter((inst) => inst.templates.length > 0)
const ORDERABLE: ReadonlySet<string> = new Set(['pairwise-preference', 'idea-similarity'])
const SCHEMES = ['single', 'multi-stage', 'omega-point'] as const

function positiveInt(text: string): number | undefined {
  const n = Number(text)
  return text.trim() && Number.isInteger(n) && n > 0 ? n : undefined
}

/** Choose instrument, judge, template and items; see the dry-run estimate; start. */
export function RunLauncher({ judges, onStarted }: { judges: JudgeSummary[]; onStarted: (runId: number) => void }) {
  const setError = useWorkbench((s) => s.setError)
  const [instrument, setInstrument] = useState<InstrumentId | 'generation'>('pairwise-preference')
  const [scheme, setScheme] = useState<(typeof SCHEMES)[number]>('single')
  const [outSet, setOutSet] = useState('')
  const [judgeId, setJudgeId] = useState<number | null>(null)
  const [templates, setTemplates] = useState<TemplateSummary[]>([])
  const [template, setTemplate] = useState('')
  const [sets, setSets] = useState<string[]>([])
  const [set, setSet] = useState('')
  const [split, setSplit] = useState<Split | ''>('')
  const [limit, setLimit] = useState('')
  const [seed, setSeed] = useState('')
  const [trials, setTrials] = useState('1')
  const [concurrency, setConcurrency] = useState('8')
  const [bothOrders, setBothOrders] = useState(false)
  const [batch, setBatch] = useState(false)
  const [estimate, setEstimate] = useState<RunEstimate | null>(null)
  const [estimateError, setEstimateError] = useState<string | null>(null)
  const [starting, setStarting] = useState(false)

  useEffect(() => {
    void api['items.facets']({}).then((f) => setSets(f.sets), (e: Error) => setError(e.message))
  }, [setError])

  useEffect(() => {
    if (judgeId === null && judges[0]) setJudgeId(judges[0].id)
  }, [judges, judgeId])

  useEffect(() => {
    setTemplate('')
    if (instrument === 'generation') return setTemplates([])
    void api['templates.list']({ instrument }).then((r) => setTemplates(r.templates), (e: Error) => setError(e.message))
  }, [instrument, setError])

  const spec = useMemo((): RunSpec | null => {
    if (judgeId === null) return null
    if (instrument === 'generation') {
      return {
        instrument,
        judgeId,
        scheme,
        ...(outSet.trim() ? { outSet: outSet.trim() } : {}),
        ...(set ? { set } : {}),
        ...(split ? { split } : {}),
        ...(positiveInt(limit) ? { limit: positiveInt(limit) } : {}),
        ...(positiveInt(concurrency) ? { concurrency: positiveInt(concurrency) } : {})
      }
    }
    return {
      instrument,
      judgeId,
      ...(template ? { template } : {}),
      ...(set ? { set } : {}),
      ...(split ? { split } : {}),
      ...(positiveInt(limit) ? { limit: positiveInt(limit) } : {}),
      ...(seed.trim() ? { seed: seed.trim() } : {}),
      ...(positiveInt(trials) ? { trials: positiveInt(trials) } : {}),
      ...(positiveInt(concurrency) ? { concurrency: positiveInt(concurrency) } : {}),
      ...(bothOrders && ORDERABLE.has(instrument) ? { bothOrders: true } : {}),
      ...(batch ? { batch: true } : {})
    }
  }, [instrument, judgeId, scheme, outSet, template, set, split, limit, seed, trials, concurrency, bothOrders, batch])

  // The estimate follows the form: nothing is sent or written to compute it.
  useEffect(() => {
    setEstimate(null)
    setEstimateError(null)
    if (!spec) return
    const timer = setTimeout(() => {
      api['runs.estimate'](spec).then(setEstimate, (e: Error) => setEstimateError(e.message))
    }, 250)
    return () => clearTimeout(timer)
  }, [spec])

  const start = async () => {
    if (!spec) return
    setStarting(true)
    try {
      const r = await api['runs.start'](spec)
      onStarted(r.runId)
    } catch (e) {
      setError((e as Error).message)
    } finally {
      setStarting(false)
    }
  }

  return (
    <section className="runs-panel" aria-label="New run">
      <h2>New run</h2>
      <form
        className="runs-form"
        onSubmit={(e) => {
          e.preventDefault()
          void start()
        }}
      >
        <label>
          Instrument
          <select aria-label="Instrument" value={instrument} onChange={(e) => setInstrument(e.target.value as InstrumentId | 'generation')}>
            <Choices values={askable().map((inst) => ({ value: inst.id, label: `${inst.title} (${inst.id})` }))} />
            <option value="generation">Generate hypothesis sets (generation)</option>
          </select>
        </label>
        {instrument === 'generation' && (
          <>
            <label>
              Scheme
              <select aria-label="Scheme" value={scheme} onChange={(e) => setScheme(e.target.value as (typeof SCHEMES)[number])}>
                <Choices values={SCHEMES} />
              </select>
            </label>
            <label>
              New sets go into
              <input aria-label="Output set" value={outSet} placeholder="generated-run…" onChange={(e) => setOutSet(e.target.value)} />
            </label>
          </>
        )}
        <label>
          Judge
          <select aria-label="Judge" value={judgeId ?? ''} onChange={(e) => setJudgeId(e.target.value ? Number(e.target.value) : null)}>
            <Choices values={judges.map((j) => ({ value: j.id, label: j.name }))} empty={judges.length === 0 ? 'Add a judge first' : undefined} />
          </select>
        </label>
        {instrument !== 'generation' && (
          <label>
            Template
            <select aria-label="Template" value={template} onChange={(e) => setTemplate(e.target.value)}>
              <Choices values={templates.map((t) => ({ value: t.ref, label: t.builtIn ? t.ref : `${t.ref} (project)` }))} empty="default" />
            </select>
          </label>
        )}
        <label>
          Set
          <select aria-label="Set" value={set} onChange={(e) => setSet(e.target.value)}>
            <Choices values={sets} empty="all sets" />
          </select>
        </label>
        <label>
          Split
          <select aria-label="Split" value={split} onChange={(e) => setSplit(e.target.value as Split | '')}>
            <Choices values={SPLITS} empty="all splits" />
          </select>
        </label>
        <label>
          First n items
          <input aria-label="Limit" value={limit} inputMode="numeric" onChange={(e) => setLimit(e.target.value)} />
        </label>
        {instrument !== 'generation' && (
          <>
            <label>
              Seed (default: project)
              <input aria-label="Seed" value={seed} onChange={(e) => setSeed(e.target.value)} />
            </label>
            <label>
              Trials
              <input aria-label="Trials" value={trials} inputMode="numeric" onChange={(e) => setTrials(e.target.value)} />
            </label>
          </>
        )}
        <label>
          Concurrency
          <input aria-label="Concurrency" value={concurrency} inputMode="numeric" onChange={(e) => setConcurrency(e.target.value)} />
        </label>
        {instrument !== 'generation' && (
          <>
            <label className="check">
              <input type="checkbox" disabled={!ORDERABLE.has(instrument)} checked={bothOrders && ORDERABLE.has(instrument)} onChange={(e) => setBothOrders(e.target.checked)} /> Both orders
            </label>
            <label className="check">
              <input type="checkbox" checked={batch} onChange={(e) => setBatch(e.target.checked)} /> Batch API
            </label>
          </>
        )}
        <div className="actions">
          <button type="submit" className="primary" disabled={!estimate || starting || estimate.calls === 0}>
            Start run
          </button>
          {estimateError && <span className="form-error">{estimateError}</span>}
        </div>
      </form>
      {estimate && <EstimateView estimate={estimate} />}
    </section>
  )
}

function EstimateView({ estimate: e }: { estimate: RunEstimate }) {
  return (
    <div className="runs-estimate" data-testid="estimate">
      <dl>
        <div>
          <dt>Template</dt>
          <dd>{e.template}</dd>
        </div>
        <div>
          <dt>Items</dt>
          <dd>{formatCount(e.items)}</dd>
        </div>
        <div>
          <dt>Calls</dt>
          <dd data-testid="estimate-calls">{formatCount(e.calls)}</dd>
        </div>
        <div>
          <dt>From cache</dt>
          <dd>{formatCount(e.cached)}</dd>
        </div>
        <div>
          <dt>To send</dt>
          <dd>{formatCount(e.toSend)}</dd>
        </div>
        <div>
          <dt>Tokens (est.)</dt>
          <dd>
            {formatCount(e.inputTokens)} in · {formatCount(e.outputTokens)} out
          </dd>
        </div>
        <div>
          <dt>Cost (est.)</dt>
          <dd data-testid="estimate-cost">{formatUsd(e.costUsd)}</dd>
        </div>
      </dl>
      <p className="muted small">
        {e.price
          ? `At $${e.price.inputPerMtok}/$${e.price.outputPerMtok} per million tokens (${e.price.model}, ${e.price.source === 'project' ? 'project price table' : 'default price'}${e.batch ? `, batch discount ${e.price.batchDiscount * 100}%` : ''}).`
          : 'No price for this model: add one to the price table.'}{' '}
        Prompt tokens are estimated at four characters a token; answers at the judge’s limit or a typical length.
      </p>
      {e.skipped > 0 && (
        <details className="small">
          <summary>{e.skipped} item(s) cannot be asked</summary>
          <ul>
            {e.skippedItems.slice(0, 50).map((s) => (
              <li key={s.itemId}>
                {s.externalId}: {s.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  )
}
