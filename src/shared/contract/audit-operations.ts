/** Operations of the audit (merged into the one contract in operations.ts). */
export const auditOperations = {} as const
