/** Dollars as the workbench and the command line print them. */
export function formatUsd(usd: number): string {
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`
}

/**
 * A run's cost in words: calls answered without a known price (no row in the price table for the model) are not
 * free, so a run with only such calls is "price unknown", never $0, and one with some says how many are left out.
 */
export function costText(costUsd: number, unpriced: number): string {
  if (unpriced === 0) return formatUsd(costUsd)
  if (costUsd === 0) return 'price unknown'
  return `${formatUsd(costUsd)} + price unknown for ${unpriced} call${unpriced === 1 ? '' : 's'}`
}
