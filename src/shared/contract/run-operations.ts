/** Operations of judge configurations and model runs (merged into the one contract in operations.ts). */
export const runOperations = {} as const
