/**
 * The options of a select: an optional empty choice ("All sets", "Detect") followed by the values, each shown as
 * itself. The screens' filters and forms all list their choices this way.
 */
export function Choices({ values, empty }: { values: ReadonlyArray<string>; empty?: string }) {
  return (
    <>
      {empty !== undefined && <option value="">{empty}</option>}
      {values.map((v) => (
        <option key={v} value={v}>
          {v}
        </option>
      ))}
    </>
  )
}
