import { describe, expect, it } from 'vitest'
import { backoffMs, DEFAULT_RETRY_POLICY, ProviderGate } from '../../../src/main/runner'

describe('backoff', () => {
  it('doubles from the base up to the cap, jittered within the upper half', () => {
    const p = DEFAULT_RETRY_POLICY
    expect([1, 2, 3].map((n) => backoffMs(p, n, () => 0))).toEqual([500, 1000, 2000])
    expect([1, 2, 3].map((n) => backoffMs(p, n, () => 1))).toEqual([1000, 2000, 4000])
    expect(backoffMs(p, 20, () => 1)).toBe(60_000)
  })
})

describe('provider gate', () => {
  it('lets `limit` requests through and the next one when a slot is released', async () => {
    const gate = new ProviderGate(2)
    const r1 = await gate.acquire()
    await gate.acquire()
    let third = false
    const p = gate.acquire().then((release) => {
      third = true
      return release
    })
    await new Promise((r) => setTimeout(r, 10))
    expect(third).toBe(false)
    r1()
    await p
    expect(third).toBe(true)
    expect(gate.inFlight).toBe(2)
  })

  it('holds every request during a pause', async () => {
    const gate = new ProviderGate(5)
    gate.pause(120)
    const t = Date.now()
    await gate.acquire()
    expect(Date.now() - t).toBeGreaterThanOrEqual(110)
  })

  it('gives up waiting when the run is cancelled', async () => {
    const gate = new ProviderGate(1)
    await gate.acquire()
    const controller = new AbortController()
    const waiting = gate.acquire(controller.signal)
    controller.abort()
    await expect(waiting).rejects.toMatchObject({ kind: 'cancelled' })
  })
})
