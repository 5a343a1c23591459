/** How many bootstrap resamples a report may draw: one range for every front door (contract, command line). */
export const MIN_BOOTSTRAP_RESAMPLES = 2000
export const MAX_BOOTSTRAP_RESAMPLES = 100_000
