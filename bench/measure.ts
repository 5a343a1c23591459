export type BenchFigures = Record<string, number | string | null>

export function time(fn: () => unknown): number {
  const t = performance.now()
  fn()
  return performance.now() - t
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

export function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b)
  const h = (s.length - 1) * q
  const lo = Math.floor(h)
  return s[lo]! + (h - lo) * ((s[Math.ceil(h)] ?? s[lo]!) - s[lo]!)
}
