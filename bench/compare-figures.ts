// Compares two runs of `npm run bench` on what a change may move: every ratio to a baseline measured in the same run
// (a figure in milliseconds moves with the machine's load; its ratio to the baseline beside it moves much less).

export interface RatioChange {
  /** Dotted path of the figure in the bench's JSON (`report.pairs_20000.report_vs_bare_ratio`). */
  path: string
  before: number
  after: number
  /** after / before − 1: +0.10 is 10% slower relative to its baseline. */
  change: number
  /** The band `change` is judged against (see compareRuns). */
  noise: number
  verdict: 'within noise' | 'slower' | 'faster'
}

/** Ratios of figures to their baselines: numeric leaves named `*_ratio`, except the targets that state a goal. */
export function ratioFigures(run: unknown, prefix = ''): Map<string, number> {
  const out = new Map<string, number>()
  if (run === null || typeof run !== 'object') return out
  for (const [key, value] of Object.entries(run as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key
    if (typeof value === 'number' && key.endsWith('_ratio') && !key.startsWith('target') && Number.isFinite(value)) out.set(path, value)
    else if (value !== null && typeof value === 'object') for (const [p, v] of ratioFigures(value, path)) out.set(p, v)
  }
  return out
}

/**
 * Each ratio present on both sides, judged against its noise: the larger of `floor` (a fraction: 0.15 lets a ratio
 * move by 15% either way) and the spread seen between repeated runs of one side (the largest relative distance of a
 * run's ratio from that side's median). Several runs a side measure the machine's noise instead of assuming it; a side
 * is compared by its median. Figures found on one side only are listed apart.
 */
export function compareRuns(before: unknown | unknown[], after: unknown | unknown[], floor: number): { changes: RatioChange[]; onlyBefore: string[]; onlyAfter: string[] } {
  if (!(floor >= 0)) throw new Error(`noise must be a fraction of at least 0, got ${floor}`)
  const a = side(Array.isArray(before) ? before : [before])
  const b = side(Array.isArray(after) ? after : [after])
  const changes: RatioChange[] = []
  for (const [path, x] of a) {
    const y = b.get(path)
    if (y === undefined) continue
    const change = x.median === 0 ? (y.median === 0 ? 0 : Infinity) : y.median / x.median - 1
    const noise = Math.max(floor, x.spread, y.spread)
    changes.push({ path, before: x.median, after: y.median, change, noise, verdict: Math.abs(change) <= noise ? 'within noise' : change > 0 ? 'slower' : 'faster' })
  }
  return { changes, onlyBefore: [...a.keys()].filter((p) => !b.has(p)), onlyAfter: [...b.keys()].filter((p) => !a.has(p)) }
}

/** A side's ratios (those present in every one of its runs): median and spread over the runs. */
function side(runs: unknown[]): Map<string, { median: number; spread: number }> {
  const figures = runs.map((r) => ratioFigures(r))
  const out = new Map<string, { median: number; spread: number }>()
  for (const path of figures[0]?.keys() ?? []) {
    const xs = figures.map((f) => f.get(path)).filter((x): x is number => x !== undefined)
    if (xs.length !== figures.length) continue
    const m = median(xs)
    out.set(path, { median: m, spread: m === 0 ? 0 : Math.max(...xs.map((x) => Math.abs(x / m - 1))) })
  }
  return out
}

function median(xs: number[]): number {
  const s = [...xs].sort((p, q) => p - q)
  const k = Math.floor(s.length / 2)
  return s.length % 2 ? s[k]! : (s[k - 1]! + s[k]!) / 2
}

export function formatComparison(result: ReturnType<typeof compareRuns>, noise: number): string {
  const rows = result.changes.map((c) => `${c.verdict.padEnd(12)}  ${fmt(c.before).padStart(8)} → ${fmt(c.after).padStart(8)}  ${signed(c.change).padStart(8)}  ±${(c.noise * 100).toFixed(0).padStart(2)}%  ${c.path}`)
  const slower = result.changes.filter((c) => c.verdict === 'slower').length
  const lines = [`ratios to their baselines (medians of each side's runs); noise at least ±${Math.round(noise * 100)}%, more where repeated runs spread wider`, ...rows]
  if (result.onlyBefore.length) lines.push(`only in the first run: ${result.onlyBefore.join(', ')}`)
  if (result.onlyAfter.length) lines.push(`only in the second run: ${result.onlyAfter.join(', ')}`)
  lines.push(slower ? `${slower} of ${result.changes.length} ratios slower beyond noise` : `all ${result.changes.length} ratios within noise or faster`)
  return lines.join('\n')
}

function fmt(x: number): string {
  return Number.isFinite(x) ? x.toFixed(2) : String(x)
}

function signed(x: number): string {
  return Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%` : String(x)
}
