import OpenAI from 'openai'
import { startFakeProviders, type FakeProviders } from '../test/fakes'
import { createProvider } from '../src/main/providers'
import { createJudge, executeRun, parseRunSpec, prepareRun } from '../src/main/runner'
import { MemoryKeyStore } from '../src/main/secrets'
import { insertItems, type NewItem } from '../src/main/store/items'
import { Project } from '../src/main/store/project'
import type { BenchFigures } from './measure'

const KEY = 'sk-bench-0123456789abcdef'
// A leak audit: one of the hypothesis benchmark's JSON-only requests, the common shape of a judging call.
const ANSWER = '{"leak":false,"evidence":""}'

function tasks(n: number): NewItem[] {
  return Array.from({ length: n }, (_, i) => ({
    kind: 'rediscovery-task' as const,
    externalId: `task-${i}`,
    set: 'bench',
    split: 'none' as const,
    payload: {
      task_id: `task-${i}`,
      background: `Ageing tissues lose proteostasis; in model ${i % 97} the decline starts in mid life and varies between organs.`,
      question: `What drives the mid-life decline of proteostasis in model ${i}?`,
      finding: `A chaperone ${i % 13} is silenced by promoter methylation from mid life.`,
      key_points: ['chaperone silencing', 'promoter methylation', 'mid-life onset']
    }
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
 * Each round brackets the run between two bare loops and compares it with their mean, so that load from elsewhere on
 * the machine shifts both sides of a ratio alike; the figure is the median ratio over the rounds.
 */
export async function benchRunner(dir: string, calls = 10_000, concurrency = 64, rounds = 3): Promise<BenchFigures> {
  const fake = await startFakeProviders({ responder: () => ANSWER })
  try {
    const keyStore = new MemoryKeyStore()
    await keyStore.set('openai', KEY)
    const results: { bareBeforeMs: number; runMs: number; bareAfterMs: number; planMs: number }[] = []
    for (let round = 0; round < rounds; round++) {
      const project = await Project.create(`${dir}/runner-${round}.assay`)
      project.write((db) => insertItems(db, tasks(calls)))
      const judge = project.write((db) => createJudge(db, { provider: 'openai', model: 'gpt-4.1-mini', baseUrl: fake.url('openai') }))
      const planStarted = performance.now()
      const prepared = prepareRun(project, parseRunSpec({ instrument: 'leak-audit', judgeId: judge.id, concurrency }))
      const planMs = performance.now() - planStarted
      const prompts = prepared.plan.calls.map((c) => c.prompt)
      // Warm the JIT on both paths before anything is timed.
      if (round === 0) await bareLoop(fake, prompts.slice(0, 2000), concurrency)

      const bareBeforeMs = await bareLoop(fake, prompts, concurrency)
      const runStarted = performance.now()
      const result = await executeRun(project, prepared.runId, { keyStore, createProvider }, { signal: new AbortController().signal })
      const runMs = performance.now() - runStarted
      const bareAfterMs = await bareLoop(fake, prompts, concurrency)
      if (result.counts.ok !== calls) throw new Error(`round ${round} recorded ${result.counts.ok} of ${calls} calls`)
      project.close()
      results.push({ bareBeforeMs, runMs, bareAfterMs, planMs })
      fake.reset()
      fake.setScript({ responder: () => ANSWER })
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
    const ratios = results.map((r) => (r.bareBeforeMs + r.bareAfterMs) / 2 / r.runMs)
    const withPlanning = results.map((r) => (r.bareBeforeMs + r.bareAfterMs) / 2 / (r.runMs + r.planMs))
    const runMs = median(results.map((r) => r.runMs))
    const bareMs = median(results.map((r) => (r.bareBeforeMs + r.bareAfterMs) / 2))
    return {
      calls,
      concurrency,
      runner_calls_per_s: Math.round(calls / (runMs / 1000)),
      bare_sdk_calls_per_s: Math.round(calls / (bareMs / 1000)),
      runner_vs_bare_ratio: Number(median(ratios).toFixed(3)),
      target_ratio: 0.8,
      plan_and_record_pending_ms: Math.round(median(results.map((r) => r.planMs))),
      runner_with_planning_vs_bare_ratio: Number(median(withPlanning).toFixed(3)),
      ratio_per_round: ratios.map((r) => r.toFixed(3)).join(' '),
      rounds_ms: JSON.stringify(results.map((r) => ({ bare_before: Math.round(r.bareBeforeMs), run: Math.round(r.runMs), bare_after: Math.round(r.bareAfterMs), plan: Math.round(r.planMs) })))
    }
  } finally {
    await fake.close()
  }
}
