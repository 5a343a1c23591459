/** A choice of a select: a value shown as itself, or a value with the label shown for it. */
export type Choice = string | { value: string | number; label: string }

/**
 * The options of a select: an optional empty choice ("All sets", "Detect") followed by the values. The screens'
 * filters and forms all list their choices this way.
 */
export function Choices({ values, empty }: { values: ReadonlyArray<Choice>; empty?: string | undefined }) {
  return (
    <>
      {empty !== undefined && <option value="">{empty}</option>}
      {values.map((v) => {
        const { value, label } = typeof v === 'string' ? { value: v, label: v } : v
        return (
          <option key={value} value={value}>
            {label}
          </option>
        )
      })}
    </>
  )
}
