import { describe, expect, it } from 'vitest'
import { withBusyRetry } from '../../../src/shared/contract/busy-retry'
import type { Envelope, Transport } from '../../../src/shared/contract/client'

function scripted(answers: Envelope[]): Transport & { calls: number } {
  const t = {
    calls: 0,
    invoke: async () => answers[Math.min(t.calls++, answers.length - 1)]!,
    subscribe: () => () => undefined
  }
  return t
}
const busy: Envelope = { ok: false, error: { code: 'busy', message: 'locked' } }
const done: Envelope = { ok: true, value: 1 }

describe('client retry of busy answers', () => {
  it('retries `busy` with growing delays until an answer comes', async () => {
    const inner = scripted([busy, busy, done])
    const delays: number[] = []
    const t = withBusyRetry(inner, { baseMs: 100, random: () => 0.5, sleep: async (ms) => void delays.push(ms) })
    expect(await t.invoke('annotations.submit', {})).toEqual(done)
    expect(inner.calls).toBe(3)
    expect(delays).toEqual([100, 200])
  })

  it('gives up after the last attempt and returns the busy error', async () => {
    const inner = scripted([busy])
    const t = withBusyRetry(inner, { attempts: 4, sleep: async () => undefined })
    expect(await t.invoke('x', {})).toEqual(busy)
    expect(inner.calls).toBe(4)
  })

  it('does not retry other errors', async () => {
    const inner = scripted([{ ok: false, error: { code: 'internal', message: 'bug' } }, done])
    const t = withBusyRetry(inner, { sleep: async () => undefined })
    expect(await t.invoke('x', {})).toMatchObject({ ok: false })
    expect(inner.calls).toBe(1)
  })
})
