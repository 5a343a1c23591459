import { useEffect, useState } from 'react'
import type { OperationOutput } from '../../../shared/contract/operations'
import type { PacketSummary } from '../../../shared/contract/packet-operations'
import { allInstruments, type InstrumentId } from '../../../shared/instruments'
import { SPLITS, type Split } from '../../../shared/items/labels'
import { api } from '../api'
import { TableScroll } from '../components/TableScroll'

type Annotator = OperationOutput<'annotators.list'>['annotators'][number]

/**
 * Packets for offline annotation: export one annotator's assignments (blinded; hidden fields are not in the file),
 * merge packets back (all or nothing; merging again changes nothing), and the packets made so far.
 */
export function PacketsPanel() {
  const [annotators, setAnnotators] = useState<Annotator[]>([])
  const [packets, setPackets] = useState<PacketSummary[]>([])
  const [annotator, setAnnotator] = useState('')
  const [instrument, setInstrument] = useState<InstrumentId | ''>('')
  const [set, setSet] = useState('')
  const [split, setSplit] = useState<Split | ''>('')
  const [out, setOut] = useState('')
  const [paths, setPaths] = useState('')
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null)

  const refresh = () => {
    api['packets.list']({}).then((r) => setPackets(r.packets), () => setPackets([]))
  }
  useEffect(() => {
    api['annotators.list']({}).then((r) => {
      setAnnotators(r.annotators)
      setAnnotator((a) => a || (r.annotators[0]?.name ?? ''))
    }, () => setAnnotators([]))
    refresh()
  }, [])

  const run = async (fn: () => Promise<string>) => {
    setResult(null)
    try {
      setResult({ ok: true, text: await fn() })
      refresh()
    } catch (e) {
      setResult({ ok: false, text: (e as Error).message })
    }
  }

  const exportPacket = () =>
    run(async () => {
      const r = await api['packets.export']({
        annotator,
        out,
        ...(instrument ? { instrument } : {}),
        ...(set.trim() ? { set: set.trim() } : {}),
        ...(split ? { split } : {})
      })
      return `Packet for ${r.annotator}: ${r.assignments} assignments written to ${r.path}. Open it with: assay serve ${r.path}`
    })

  const merge = () =>
    run(async () => {
      const list = paths
        .split('\n')
        .map((p) => p.trim())
        .filter(Boolean)
      const r = await api['packets.merge']({ paths: list })
      return r.packets
        .map((p) => `${p.path}: ${p.annotator}, ${p.added} revisions added, ${p.alreadyPresent} already present${p.rebased ? `, ${p.rebased} appended after newer revisions` : ''}`)
        .join('\n')
    })

  return (
    <div className="packets" data-testid="packets">
      <section>
        <h2>Export a packet</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault()
            void exportPacket()
          }}
        >
          <label htmlFor="packet-annotator">Annotator</label>
          <select id="packet-annotator" value={annotator} onChange={(e) => setAnnotator(e.target.value)}>
            {annotators.map((a) => (
              <option key={a.id} value={a.name}>
                {a.name} ({a.assignments} assigned, {a.done} done)
              </option>
            ))}
          </select>
          <label htmlFor="packet-instrument">Instrument</label>
          <select id="packet-instrument" value={instrument} onChange={(e) => setInstrument(e.target.value as InstrumentId | '')}>
            <option value="">all</option>
            {allInstruments().map(({ id, title }) => (
              <option key={id} value={id}>
                {title}
              </option>
            ))}
          </select>
          <label htmlFor="packet-set">Set</label>
          <input id="packet-set" value={set} onChange={(e) => setSet(e.target.value)} placeholder="all sets" />
          <label htmlFor="packet-split">Split</label>
          <select id="packet-split" value={split} onChange={(e) => setSplit(e.target.value as Split | '')}>
            <option value="">all</option>
            {SPLITS.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
          <label htmlFor="packet-out">Write to</label>
          <input id="packet-out" value={out} onChange={(e) => setOut(e.target.value)} placeholder="/path/to/packet-for-annotator.assay" required />
          <div className="actions">
            <button type="submit" disabled={!annotator || !out.trim()}>
              Export packet
            </button>
          </div>
        </form>
      </section>
      <section>
        <h2>Merge packets</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault()
            void merge()
          }}
        >
          <label htmlFor="packet-paths">Packet files</label>
          <textarea id="packet-paths" value={paths} onChange={(e) => setPaths(e.target.value)} placeholder="one path a line" />
          <div className="actions">
            <button type="submit" disabled={!paths.trim()}>
              Merge
            </button>
          </div>
        </form>
      </section>
      {result && (
        <p className={result.ok ? 'result' : 'failure'} role={result.ok ? 'status' : 'alert'} data-testid="packet-result">
          {result.text}
        </p>
      )}
      <section>
        <h2>Packets made</h2>
        {packets.length === 0 ? (
          <p className="muted">None yet.</p>
        ) : (
          <TableScroll label="Packets"><table className="grid">
            <thead>
              <tr>
                <th>Annotator</th>
                <th className="num">Assignments</th>
                <th>Made</th>
                <th>Merged</th>
                <th className="num">Revisions back</th>
              </tr>
            </thead>
            <tbody>
              {packets.map((p) => (
                <tr key={p.id} title={p.id}>
                  <td>{p.annotator}</td>
                  <td className="num">{p.assignments}</td>
                  <td>{p.createdAt}</td>
                  <td>{p.mergedAt ?? '—'}</td>
                  <td className="num">{p.mergedAnswers}</td>
                </tr>
              ))}
            </tbody>
          </table></TableScroll>
        )}
      </section>
    </div>
  )
}
