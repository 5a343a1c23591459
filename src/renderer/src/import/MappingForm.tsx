import { GENERIC_ROLES, GENERIC_SHAPES, type GenericMapping, type GenericRole, type GenericShape } from '../../../shared/items/generic-mapping'
import { Choices } from '../components/Choices'

/**
 * The generic format's mapping: whether the rows are single texts or pairs, and which of the file's columns (from
 * its last preview) holds each role. Columns no role names are kept under `$extra`; main checks every choice again.
 */
export function MappingForm({ mapping, columns, onChange }: { mapping: GenericMapping; columns: ReadonlyArray<string>; onChange(m: GenericMapping): void }) {
  const roles = GENERIC_ROLES[mapping.as]
  const setColumn = (role: GenericRole, column: string) => {
    const next = { ...mapping.columns }
    if (column) next[role] = column
    else delete next[role]
    onChange({ ...mapping, columns: next })
  }
  return (
    <fieldset className="import-mapping-form" aria-label="Column mapping" data-testid="mapping-form">
      <legend>Columns</legend>
      <label>
        Rows are
        <select
          aria-label="Rows are"
          value={mapping.as}
          onChange={(e) => {
            const as = e.target.value as GenericShape
            // Roles the other shape has too (id, title) keep their column.
            const keep = new Set(GENERIC_ROLES[as].map((r) => r.role))
            onChange({ as, columns: Object.fromEntries(Object.entries(mapping.columns).filter(([role]) => keep.has(role))) })
          }}
        >
          <Choices values={GENERIC_SHAPES.map((s) => ({ value: s, label: s === 'texts' ? 'single texts' : 'pairs of texts' }))} />
        </select>
      </label>
      {columns.length === 0 && <p className="muted small">Preview the file to choose among its columns.</p>}
      {roles.map((r) => (
        <label key={r.role}>
          {r.role}
          {r.required ? ' (required)' : ''}
          <select aria-label={`Column for ${r.role}`} value={mapping.columns[r.role as GenericRole] ?? ''} onChange={(e) => setColumn(r.role as GenericRole, e.target.value)}>
            <Choices values={columns} empty="—" />
          </select>
          <span className="muted small">{r.to}</span>
        </label>
      ))}
      <p className="muted small">Columns not chosen here are kept unchanged under $extra.</p>
    </fieldset>
  )
}
