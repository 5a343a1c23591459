// Plain formatting of run figures for the runs screen.

export function formatUsd(usd: number | null): string {
  if (usd === null) return 'unknown'
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return '—'
  const s = Math.round(ms / 1000)
  if (s < 60) return `${s}s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US')
}
