// The formula-error probe's name and the edits it may make, apart from the edit code (which parses Markdown), so the
// provenance schema recorded with every probe item does not load a Markdown parser.

export const FORMULA_EDIT_METHOD = 'formula-edit-v1'
export const FORMULA_EDIT_OPS = ['swap-sign', 'change-exponent', 'drop-factor'] as const
export type FormulaEditOp = (typeof FORMULA_EDIT_OPS)[number]
