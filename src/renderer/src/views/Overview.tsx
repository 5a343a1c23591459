import type { ProjectView } from '../../../shared/contract/schemas'
import { useWorkbench } from '../workbench-state'
import type { ItemKind, Split } from '../../../shared/items/kinds'
import { TableScroll } from '../components/TableScroll'

/** Counts by kind, set and split; each row opens the item browser filtered to it. */
export function Overview({ info }: { info: ProjectView }) {
  const { setFilters, setScreen } = useWorkbench()
  const byKind = new Map<string, number>()
  for (const c of info.counts) byKind.set(c.kind, (byKind.get(c.kind) ?? 0) + c.n)
  return (
    <section className="overview">
      <h1>{info.name}</h1>
      <dl className="stats">
        <div>
          <dt>Items</dt>
          <dd data-testid="count-items">{info.items}</dd>
        </div>
        <div>
          <dt>Annotators</dt>
          <dd>{info.annotators ?? '—'}</dd>
        </div>
        <div>
          <dt>Annotations</dt>
          <dd data-testid="count-annotations">{info.annotations ?? '—'}</dd>
        </div>
        <div>
          <dt>Judgements</dt>
          <dd data-testid="count-judgements">{info.judgements ?? '—'}</dd>
        </div>
        <div>
          <dt>Exposures</dt>
          <dd>{info.exposures ?? '—'}</dd>
        </div>
      </dl>
      <h2>Items by kind</h2>
      <ul className="kind-list">
        {[...byKind].map(([kind, n]) => (
          <li key={kind}>
            <button
              className="link"
              onClick={() => {
                setFilters({ kind: kind as ItemKind, set: undefined, split: undefined, text: '' })
                setScreen('items')
              }}
            >
              {kind}
            </button>{' '}
            <span className="muted">{n}</span>
          </li>
        ))}
      </ul>
      <h2>By kind, set and split</h2>
      <TableScroll label="Items by kind, set and split"><table className="grid">
        <thead>
          <tr>
            <th>Kind</th>
            <th>Set</th>
            <th>Split</th>
            <th className="num">Items</th>
          </tr>
        </thead>
        <tbody>
          {info.counts.map((c) => (
            <tr
              key={`${c.kind}/${c.set_name}/${c.split}`}
              className="clickable"
              onClick={() => {
                setFilters({ kind: c.kind as ItemKind, set: c.set_name, split: c.split as Split, text: '' })
                setScreen('items')
              }}
            >
              <td>{c.kind}</td>
              <td>{c.set_name}</td>
              <td>{c.split}</td>
              <td className="num">{c.n}</td>
            </tr>
          ))}
        </tbody>
      </table></TableScroll>
      <p className="muted small">
        Schema {info.schemaVersion} · project {info.projectId}
        {info.path && ` · ${info.path}`}
      </p>
    </section>
  )
}
