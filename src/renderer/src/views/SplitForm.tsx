import { useState, type FormEvent } from 'react'
import type { z } from 'zod'
import type { splitPlanSchema } from '../../../shared/contract/split-schemas'
import { ITEM_KINDS, type ItemKind } from '../../../shared/items/kinds'
import { api } from '../api'
import { Choices } from '../components/Choices'
import { Modal } from '../components/Modal'
import { TableScroll } from '../components/TableScroll'

type SplitPlan = z.infer<typeof splitPlanSchema>

/**
 * The dev/test split of `assay split`, from the item browser: test share, seed (the project's unless changed) and an
 * optional set or kind. The plan it made is shown in full, warnings and fits no longer held out included; a refusal
 * (items already in use) is shown in the form, in the words of the refusal.
 */
export function SplitForm(props: { sets: string[]; projectSeed: string | undefined; onSplit(): void; onClose(): void }) {
  const [share, setShare] = useState('0.5')
  const [seed, setSeed] = useState(props.projectSeed ?? '')
  const [set, setSet] = useState('')
  const [kind, setKind] = useState('')
  const [busy, setBusy] = useState(false)
  const [refusal, setRefusal] = useState<string | null>(null)
  const [plan, setPlan] = useState<SplitPlan | null>(null)
  const fraction = Number(share)
  const shareError = share.trim() === '' || !Number.isFinite(fraction) || fraction <= 0 || fraction >= 1 ? 'The test share must be a number between 0 and 1, such as 0.5.' : null

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (shareError || busy) return
    setBusy(true)
    setRefusal(null)
    setPlan(null)
    api['items.split']({
      testFraction: fraction,
      ...(seed.trim() ? { seed: seed.trim() } : {}),
      ...(set ? { set } : {}),
      ...(kind ? { kind: kind as ItemKind } : {})
    }).then(
      (made) => {
        setPlan(made)
        setBusy(false)
        props.onSplit()
      },
      (err: Error) => {
        setRefusal(err.message)
        setBusy(false)
      }
    )
  }

  return (
    <Modal label="Make a dev/test split" className="split-modal" testId="split-form" onClose={props.onClose}>
      <h2>Make a dev/test split</h2>
      <p className="muted">
        Seeded and stratified by set, kind and reference label, as <code>assay split</code>: the same seed always gives the same split. Refused once the
        items are in use (answered or judged).
      </p>
      <form onSubmit={submit} className="split-fields">
        <label>
          Test share
          <input inputMode="decimal" value={share} onChange={(e) => setShare(e.target.value)} aria-invalid={shareError ? true : undefined} aria-describedby="split-share-hint" />
        </label>
        <span id="split-share-hint" className={shareError ? 'field-error' : 'muted'}>
          {shareError ?? 'Share of each stratum held out as test.'}
        </span>
        <label>
          Seed
          <input value={seed} onChange={(e) => setSeed(e.target.value)} placeholder="The project seed" />
        </label>
        <label>
          Set
          <select value={set} onChange={(e) => setSet(e.target.value)}>
            <Choices values={props.sets} empty="All sets" />
          </select>
        </label>
        <label>
          Kind
          <select value={kind} onChange={(e) => setKind(e.target.value)}>
            <Choices values={Object.keys(ITEM_KINDS)} empty="All kinds" />
          </select>
        </label>
        <div className="split-actions">
          <button type="submit" className="primary" disabled={busy || shareError !== null}>
            {busy ? 'Splitting…' : 'Make the split'}
          </button>
          <button type="button" onClick={props.onClose}>
            Close
          </button>
        </div>
      </form>
      {refusal && (
        <p className="split-refusal" role="alert" data-testid="split-refusal">
          {refusal}
        </p>
      )}
      {plan && <SplitPlanView plan={plan} />}
    </Modal>
  )
}

function SplitPlanView({ plan }: { plan: SplitPlan }) {
  return (
    <section className="split-plan" data-testid="split-plan" aria-label="The split made" role="status">
      <h3>
        Split made: {plan.dev} dev, {plan.test} test
      </h3>
      <p className="muted">
        Seed {plan.seed}, test share {plan.testFraction}.
      </p>
      {plan.warnings.map((w) => (
        <p key={w} className="split-warning" data-testid="split-warning">
          {w}
        </p>
      ))}
      {plan.fitsNoLongerHeldOut.length > 0 && (
        <div className="split-warning" data-testid="split-fits">
          <p>No longer held out — this split moved items these calibration fits learned from, so their reports give no held-out figures:</p>
          <ul>
            {plan.fitsNoLongerHeldOut.map((f) => (
              <li key={f.id}>
                Fit {f.id} ({f.method}, {f.instrument}): {f.movedItems} item{f.movedItems === 1 ? '' : 's'} moved
              </li>
            ))}
          </ul>
        </div>
      )}
      <TableScroll label="Strata of the split">
        <table>
          <thead>
            <tr>
              <th scope="col">Stratum</th>
              <th scope="col" className="num">Items</th>
              <th scope="col" className="num">Dev</th>
              <th scope="col" className="num">Test</th>
            </tr>
          </thead>
          <tbody>
            {plan.strata.map((s) => (
              <tr key={s.stratum}>
                <td>{s.stratum}</td>
                <td className="num">{s.items}</td>
                <td className="num">{s.items - s.test}</td>
                <td className="num">{s.test}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  )
}
