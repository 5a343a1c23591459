import { createProvider, type ProviderKind } from '../../../src/main/providers'
import { createJudge, executeRun, parseRunSpec, prepareRun, type Judge, type RunEnvironment, type RunResult } from '../../../src/main/runner'
import type { RunProgress } from '../../../src/main/runner'
import { MemoryKeyStore } from '../../../src/main/secrets'
import { insertItems, type NewItem } from '../../../src/main/store/items'
import { Project } from '../../../src/main/store/project'
import { loadDemo } from '../../../src/main/demo/load-demo'
import type { RunSpec } from '../../../src/shared/contract/run-operations'
import { afterAll, beforeAll } from 'vitest'
import { startFakeProviders, type FakeProviders, type Prompt, type Responder } from '../../fakes'

export const KEYS: Record<ProviderKind, string> = {
  openai: 'sk-test-openai-0123456789abcdef',
  anthropic: 'ant-test-key-0123456789abcdef',
  google: 'AIzaTest0123456789abcdefghijklmn',
  'openai-compatible': 'xai-test-compatible-0123456789'
}

export const MODELS: Record<ProviderKind, string> = {
  openai: 'gpt-4.1-mini',
  anthropic: 'claude-haiku-4-5',
  google: 'gemini-2.5-flash',
  'openai-compatible': 'grok-4'
}

/** A key store holding every test key; the compatible judge's key under the name XAI. */
export function testKeyStore(): MemoryKeyStore {
  const store = new MemoryKeyStore()
  void store.set('openai', KEYS.openai)
  void store.set('anthropic', KEYS.anthropic)
  void store.set('google', KEYS.google)
  void store.set('named:XAI', KEYS['openai-compatible'])
  return store
}

/** Fast retries, so fault tests take milliseconds per retry instead of seconds. */
export function testEnv(extra: Partial<RunEnvironment> = {}): RunEnvironment {
  return { keyStore: testKeyStore(), retry: { backoffBaseMs: 5, backoffMaxMs: 20 }, progressEveryMs: 0, pollIntervalMs: 10, createProvider, ...extra }
}

export async function demoProject(path: string): Promise<Project> {
  const project = await Project.create(path)
  await loadDemo(project)
  return project
}

/** A project with `n` ideas whose texts differ, so every request is unique. */
export async function ideaProject(path: string, n: number, split: 'dev' | 'test' | 'none' = 'none'): Promise<Project> {
  const project = await Project.create(path)
  const items: NewItem[] = Array.from({ length: n }, (_, i) => ({
    kind: 'idea',
    externalId: `idea-${String(i).padStart(4, '0')}`,
    set: 'ideas',
    split,
    payload: { idea: `Idea number ${i}: measure protein turnover in aged tissue with assay variant ${i}.` }
  }))
  project.write((db) => insertItems(db, items))
  return project
}

export function addJudge(project: Project, fake: FakeProviders, kind: ProviderKind, extra: { name?: string; model?: string; options?: Record<string, unknown> } = {}): Judge {
  return project.write((db) =>
    createJudge(db, {
      ...(extra.name ? { name: extra.name } : {}),
      provider: kind,
      model: extra.model ?? MODELS[kind],
      baseUrl: fake.url(kind),
      options: { ...(kind === 'openai-compatible' ? { keyName: 'XAI' } : {}), ...(extra.options ?? {}) }
    })
  )
}

/** Prepares and executes a run to its end; collects the progress events. */
export async function runToEnd(
  project: Project,
  spec: RunSpec,
  env: RunEnvironment = testEnv(),
  signal: AbortSignal = new AbortController().signal
): Promise<RunResult & { progress: RunProgress[] }> {
  const prepared = prepareRun(project, parseRunSpec(spec))
  const progress: RunProgress[] = []
  const result = await executeRun(project, prepared.runId, env, { signal, onProgress: (p) => progress.push(p) })
  return { ...result, progress }
}

/** Answers each instrument's request correctly shaped, from the prompt text alone. */
export function protocolResponder(p: Prompt): string {
  const u = p.user
  if (u.includes('=== PROPOSAL A ===')) return 'Checked both.\n```json\n{"analysis":"A holds up","verdict":"A_better","fatal_flaws":[]}\n```'
  if (u.includes('Proposed hypotheses:')) {
    const labels = [...u.matchAll(/^\[(P\d)\] /gm)].map((m) => m[1]!)
    return JSON.stringify({ scores: labels.map((id, i) => ({ id, match: i, compatible: true, plausibility: 3, reason: 'r' })) })
  }
  if (u.includes('VERDICT')) return 'Reasoning.\nVERDICT: CORRECT'
  if (/\[IDEA\]|idea/i.test(u)) return 'Brief analysis.\n{"originality": 7, "feasibility": 6, "clarity": 8}'
  return '{}'
}

export type { Prompt }

/**
 * For one test file: the loopback fake answering OpenAI's protocol with `responder`, and OPENAI_API_KEY set to the
 * key it expects (put back after the file). Read `fake` inside tests, once the file's beforeAll has run.
 */
export function openAiFakeForFile(responder: Responder): { readonly fake: FakeProviders } {
  const state = {} as { fake: FakeProviders }
  const saved = process.env.OPENAI_API_KEY
  beforeAll(async () => {
    state.fake = await startFakeProviders({ apiKeys: { openai: KEYS.openai }, responder })
    process.env.OPENAI_API_KEY = KEYS.openai
  })
  afterAll(async () => {
    if (saved === undefined) delete process.env.OPENAI_API_KEY
    else process.env.OPENAI_API_KEY = saved
    await state.fake?.close()
  })
  return state
}
