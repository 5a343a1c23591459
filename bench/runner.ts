import OpenAI from 'openai'
import { startFakeProviders, type FakeProviders } from '../test/fakes'
import { createProvider } from '../src/main/providers'
import { createJudge, executeRun, parseRunSpec, prepareRun } from '../src/main/runner'
import { MemoryKeyStore } from '../src/main/secrets'
import { insertItems, type NewItem } from '../src/main/store/items'
import { Project } from '../src/main/store/project'
import type { BenchFigures } from './measure'

const KEY = 'sk-bench-0123456789abcdef'
const ANSWER = 'Brief analysis.\n{"originality": 7, "feasibility": 6, "clarity": 8}'

function ideas(n: number): NewItem[] {
  return Array.from({ length: n }, (_, i) => ({
    kind: 'idea' as const,
    externalId: `idea-${i}`,
    set: 'bench',
    split: 'none' as const,
    payload: { idea: `Idea ${i}: measure proteostasis decline in aged tissue with a cheap reporter, variant ${i % 97}.` }
  }))
}

/** The floor: the same requests through the same SDK at the same concurrency, answers thrown away. */
async function bareLoop(fake: FakeProviders, prompts: readonly { system?: string; user: string }[], concurrency: number): Promise<number> {
  const client = new OpenAI({ apiKey: KEY, baseURL: fake.url('openai'), maxRetries: 0 })
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const i = next++
        const prompt = prompts[i]
        if (prompt === undefined) return
        const messages: { role: 'system' | 'user'; content: string }[] = []
        if (prompt.system !== undefined) messages.push({ role: 'system', content: prompt.system })
        messages.push({ role: 'user', content: prompt.user })
        await client.chat.completions.create({ model: 'gpt-4.1-mini', messages }, { maxRetries: 0, timeout: 60_000 })
      }
    })
  )
  return performance.now() - started
}

/**
 * Calls per second of a run that records every call durably (its own project file, WAL, synchronous=FULL), against a
 * bare SDK loop sending the same requests at the same concurrency to the same loopback server, in the same process.
 */
export async function benchRunner(dir: string, calls = 10_000, concurrency = 64): Promise<BenchFigures> {
  const fake = await startFakeProviders({ responder: () => ANSWER })
  try {
    const keyStore = new MemoryKeyStore()
    await keyStore.set('openai', KEY)
    const rounds: { bareMs: number; runMs: number; planMs: number }[] = []
    for (let round = 0; round < 3; round++) {
      const project = await Project.create(`${dir}/runner-${round}.assay`)
      project.write(() => insertItems(project.db, ideas(calls)))
      const judge = project.write(() => createJudge(project.db, { provider: 'openai', model: 'gpt-4.1-mini', baseUrl: fake.url('openai') }))
      const planStarted = performance.now()
      const prepared = prepareRun(project, parseRunSpec({ instrument: 'idea-review', judgeId: judge.id, concurrency }))
      const planMs = performance.now() - planStarted
      const prompts = prepared.plan.calls.map((c) => c.prompt)

      // Alternate which goes first, so neither always gets the warmer process.
      let bareMs = 0
      if (round % 2 === 1) bareMs = await bareLoop(fake, prompts, concurrency)
      const runStarted = performance.now()
      const result = await executeRun(project, prepared.runId, { keyStore, createProvider }, { signal: new AbortController().signal })
      const runMs = performance.now() - runStarted
      if (round % 2 === 0) bareMs = await bareLoop(fake, prompts, concurrency)
      if (result.counts.ok !== calls) throw new Error(`run ${round} recorded ${result.counts.ok} of ${calls} calls`)
      project.close()
      rounds.push({ bareMs, runMs, planMs })
      fake.reset()
      fake.setScript({ responder: () => ANSWER })
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
    const runMs = median(rounds.map((r) => r.runMs))
    const bareMs = median(rounds.map((r) => r.bareMs))
    const planMs = median(rounds.map((r) => r.planMs))
    return {
      calls,
      concurrency,
      runner_calls_per_s: Math.round(calls / (runMs / 1000)),
      bare_sdk_calls_per_s: Math.round(calls / (bareMs / 1000)),
      runner_vs_bare_ratio: Number((bareMs / runMs).toFixed(3)),
      target_ratio: 0.8,
      plan_and_record_pending_ms: Math.round(planMs),
      runner_with_planning_vs_bare_ratio: Number((bareMs / (runMs + planMs)).toFixed(3)),
      rounds: JSON.stringify(rounds.map((r) => ({ bare_ms: Math.round(r.bareMs), run_ms: Math.round(r.runMs), plan_ms: Math.round(r.planMs) })))
    }
  } finally {
    await fake.close()
  }
}
