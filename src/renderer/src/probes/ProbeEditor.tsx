import { useDeferredValue, useEffect, useMemo, useState } from 'react'
import type { ProposalPair } from '../../../shared/items/kinds'
import { probeChanges } from '../../../shared/probes/changes'
import { changedCharacters, textDiff } from '../../../shared/probes/diff'
import { ProbeChanges } from '../components/ProbeChanges'
import { api } from '../api'
import { useWorkbench } from '../workbench-state'
import './probe-editor.css'

type Kind = Awaited<ReturnType<(typeof api)['probes.kinds']>>['kinds'][number]

/**
 * A probe written by hand: one proposal of the pair on the left as it is, its copy on the right to edit, and the
 * difference below as it is typed, rendered (formulas by KaTeX). Saved as a new pair of the original and the probe, with its provenance.
 */
export function ProbeEditor({ itemId, pair, onClose }: { itemId: number; pair: ProposalPair; onClose: () => void }) {
  const setError = useWorkbench((s) => s.setError)
  const [kinds, setKinds] = useState<Kind[]>([])
  const [kind, setKind] = useState('formula-error')
  const [side, setSide] = useState<'a' | 'b'>('a')
  const [text, setText] = useState(pair.a.markdown)
  const [saved, setSaved] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const original = pair[side].markdown
  const deferred = useDeferredValue(text)
  const diff = useMemo(() => textDiff(original, deferred), [original, deferred])
  const changed = changedCharacters(diff)
  const changes = useMemo(() => probeChanges(original, deferred), [original, deferred])
  const chosen = kinds.find((k) => k.name === kind)

  useEffect(() => {
    void api['probes.kinds']({}).then((r) => setKinds(r.kinds), (e: Error) => setError(e.message))
  }, [setError])

  const chooseSide = (s: 'a' | 'b') => {
    setSide(s)
    setText(pair[s].markdown)
    setSaved(null)
  }

  const save = () => {
    setSaving(true)
    api['probes.create']({ itemId, side, kind, markdown: text }).then(
      (r) => {
        setSaved(r.pairId)
        setSaving(false)
      },
      (e: Error) => {
        setError(e.message)
        setSaving(false)
      }
    )
  }

  return (
    <section className="probe-editor" aria-label="Make a probe" data-testid="probe-editor">
      <div className="probe-editor-controls">
        <label>
          Proposal
          <select value={side} onChange={(e) => chooseSide(e.target.value as 'a' | 'b')} aria-label="Proposal to perturb">
            <option value="a">Canonical A</option>
            <option value="b">Canonical B</option>
          </select>
        </label>
        <label>
          Probe kind
          <select value={kind} onChange={(e) => setKind(e.target.value)} aria-label="Probe kind">
            {(kinds.length ? kinds : [{ name: 'formula-error', title: 'Formula error', version: 1 } as Kind]).map((k) => (
              <option key={k.name} value={k.name}>
                {k.title} ({k.name}@{k.version})
              </option>
            ))}
          </select>
        </label>
        <span className="muted small">
          Expected verdict: {chosen?.pairwise === 'no_preference' ? 'no preference from framing alone' : 'the original is better'}
          {chosen?.flaw ? ` · planted flaw ${chosen.flaw.type}, ${chosen.flaw.severity}` : ''}
        </span>
      </div>
      {chosen && <p className="probe-editor-instruction small">{chosen.instruction}</p>}
      <div className="probe-editor-sides">
        <div>
          <h3>Original (canonical {side.toUpperCase()})</h3>
          {/* Scrollable, so reachable by keyboard. */}
          <pre data-testid="probe-original" tabIndex={0} aria-label={`Original, canonical ${side.toUpperCase()}`}>
            {original}
          </pre>
        </div>
        <div>
          <h3>
            <label htmlFor="probe-text">Probe: edit the copy</label>
          </h3>
          <textarea id="probe-text" value={text} spellCheck={false} onChange={(e) => (setText(e.target.value), setSaved(null))} />
        </div>
      </div>
      <h3>
        Changes <span className="muted small">{changed} characters changed</span>
      </h3>
      <div className="probe-diff" data-testid="probe-diff" aria-live="polite" tabIndex={0} role="region" aria-label="Changes">
        {changed === 0 ? <span className="muted">No change yet.</span> : <ProbeChanges original={original} probe={deferred} changes={changes} />}
      </div>
      <div className="probe-editor-actions">
        <button type="button" className="primary" disabled={changed === 0 || saving || saved !== null} onClick={save}>
          Save probe
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
        {saved && (
          <span role="status" data-testid="probe-saved">
            Saved as {saved}; check it with the probe-check instrument.
          </span>
        )}
      </div>
    </section>
  )
}
