import { useState } from 'react'
import { allInstruments, declaredInstruments, type AnyInstrument } from '../../../shared/instruments'
import { InstrumentPreview } from './InstrumentPreview'
import './instruments.css'

/**
 * Every instrument of the project, built-in and declared, to read and try before anyone answers it: its fields at
 * their measurement levels, its form over one of the project's items as an annotator sees it, an answer checked as
 * a submission is, and the request a judge would be sent.
 */
export function InstrumentsScreen() {
  const declared = declaredInstruments()
  const builtIn = allInstruments().filter((i) => !i.declared)
  const [chosen, setChosen] = useState<string>(() => (declared[0] ?? builtIn[0])!.id)
  const instrument = [...declared, ...builtIn].find((i) => i.id === chosen)!
  return (
    <div className="instruments">
      <nav className="instrument-list" aria-label="Instruments">
        <Group title="Declared by this project" list={declared} chosen={chosen} onChoose={setChosen} empty="None yet: declare one with assay instrument add (see the README)." />
        <Group title="Built in" list={builtIn} chosen={chosen} onChoose={setChosen} />
      </nav>
      <InstrumentPreview key={instrument.id} instrument={instrument} />
    </div>
  )
}

function Group(props: { title: string; list: AnyInstrument[]; chosen: string; onChoose(id: string): void; empty?: string }) {
  return (
    <section>
      <h3>{props.title}</h3>
      {props.list.length === 0 && props.empty && <p className="muted small">{props.empty}</p>}
      <ul>
        {props.list.map((i) => (
          <li key={i.id}>
            <button className={i.id === props.chosen ? 'instrument-choice active' : 'instrument-choice'} aria-current={i.id === props.chosen ? 'true' : undefined} onClick={() => props.onChoose(i.id)}>
              <span>{i.title}</span>
              <span className="muted small">
                {i.id} · v{i.version} · {i.itemKind}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  )
}
