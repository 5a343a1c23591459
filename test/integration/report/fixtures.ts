import { appendAnnotation } from '../../../src/main/store/annotations'
import { ensureAnnotator } from '../../../src/main/store/annotators'
import { logExposure, type ExposureKind } from '../../../src/main/store/exposures'
import { insertItems, type NewItem } from '../../../src/main/store/items'
import type { Project } from '../../../src/main/store/project'
import type { CanonicalPairLabel, ItemKind, Split } from '../../../src/shared/items/kinds'

// Builders that write straight into the project's tables, the way the runner and the importers leave them.

export interface PairSpec {
  id: string
  label?: CanonicalPairLabel | null
  labelSource?: string
  origins?: ['human' | 'ai', 'human' | 'ai']
  generators?: [string | null, string | null]
  set?: string
  split?: Split
  probe?: string
  cohort?: string
}

export function addPairs(project: Project, pairs: readonly PairSpec[]): Map<string, number> {
  const items: NewItem[] = pairs.map((p) => ({
    kind: 'proposal-pair',
    externalId: p.id,
    set: p.set ?? 'pairs',
    split: p.split ?? 'none',
    payload: {
      pair_id: p.id,
      topic: 'allocation',
      a: { markdown: `# A ${p.id}\n\nProposal A.`, ...(p.origins ? { origin: p.origins[0] } : {}), ...(p.generators?.[0] ? { generator: p.generators[0] } : {}) },
      b: { markdown: `# B ${p.id}\n\nProposal B.`, ...(p.origins ? { origin: p.origins[1] } : {}), ...(p.generators?.[1] ? { generator: p.generators[1] } : {}) },
      ...(p.label ? { label: p.label } : {}),
      ...(p.labelSource ? { label_source: p.labelSource } : {}),
      ...(p.probe ? { probe: p.probe } : {}),
      ...(p.cohort ? { cohort: p.cohort } : {})
    }
  }))
  return idsOf(project, items)
}

export function addItems(project: Project, kind: ItemKind, payloads: ReadonlyArray<{ id: string; payload: Record<string, unknown>; split?: Split; set?: string }>): Map<string, number> {
  return idsOf(
    project,
    payloads.map((p) => ({ kind, externalId: p.id, set: p.set ?? 'default', split: p.split ?? 'none', payload: p.payload }))
  )
}

function idsOf(project: Project, items: NewItem[]): Map<string, number> {
  const ids = project.write((db) => insertItems(db, items))
  return new Map(items.map((item, i) => [item.externalId, ids[i] as number]))
}

export function addRun(
  project: Project,
  options: { instrument: string; judge?: string; model?: string; provider?: string; company?: string | null; trials?: number; bothOrders?: boolean }
): number {
  const db = project.db
  // Numbered within the project, so a report's judge names do not depend on what other tests ran in the process.
  const name = options.judge ?? `judge-${(db.prepare(`SELECT COUNT(*) AS n FROM judges`).get() as { n: number }).n + 1}`
  return project.write(() => {
    const existing = db.prepare(`SELECT id FROM judges WHERE name = ?`).get(name) as { id: number } | undefined
    const judgeId =
      existing?.id ??
      Number(
        db
          .prepare(`INSERT INTO judges (name, provider, model, company) VALUES (?, ?, ?, ?)`)
          .run(name, options.provider ?? 'openai', options.model ?? 'gpt-test', options.company ?? null).lastInsertRowid
      )
    return Number(
      db
        // The options every run records (the contract's run views read the viewer and the batch mode from them).
        .prepare(`INSERT INTO runs (instrument_id, judge_id, template_id, template_version, seed, both_orders, trials, status, options) VALUES (?, ?, ?, 1, '42', ?, ?, 'done', ?)`)
        .run(options.instrument, judgeId, `${options.instrument}-template`, options.bothOrders ? 1 : 0, options.trials ?? 1, JSON.stringify({ viewer: '', batch: false })).lastInsertRowid
    )
  })
}

export interface CallSpec {
  item: number
  status?: 'ok' | 'failed' | 'unparseable' | 'pending'
  judgement?: unknown
  trial?: number
  order?: number
  swapped?: boolean
}

export function addCalls(project: Project, runId: number, calls: readonly CallSpec[]): void {
  const stmt = project.db.prepare(
    `INSERT INTO model_calls (run_id, item_id, trial, order_index, request_hash, display, prompt, judgement, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
  )
  project.write(() => {
    for (const c of calls) {
      const status = c.status ?? 'ok'
      stmt.run(
        runId,
        c.item,
        c.trial ?? 0,
        c.order ?? 0,
        `hash-${runId}-${c.item}-${c.trial ?? 0}-${c.order ?? 0}`,
        JSON.stringify(c.swapped === undefined ? {} : { swapped: c.swapped }),
        JSON.stringify({ system: null, user: 'prompt' }),
        status === 'ok' ? JSON.stringify(c.judgement) : null,
        status
      )
    }
  })
}

export function annotate(
  project: Project,
  instrument: string,
  entries: ReadonlyArray<{ item: number; judgement: unknown; swapped?: boolean }>,
  who: { human: string } | { model: string } | { reference: string }
): void {
  const annotatorId = 'human' in who ? ensureAnnotator(project, who.human).id : null
  project.write((db) => {
    for (const e of entries) {
      appendAnnotation(db, {
        itemId: e.item,
        instrumentId: instrument,
        instrumentVersion: 1,
        annotatorId,
        sourceKind: 'human' in who ? 'human' : 'model' in who ? 'model' : 'reference',
        sourceName: 'human' in who ? who.human : 'model' in who ? who.model : who.reference,
        judgement: e.judgement,
        ...(e.swapped === undefined ? {} : { display: { swapped: e.swapped } }),
        origin: 'import'
      })
    }
  })
}

export function expose(project: Project, itemId: number, kind: ExposureKind = 'label_viewed'): void {
  project.write((db) => logExposure(db, itemId, kind, 'curator'))
}

/** The canonical verdict naming `side` as better. */
export function verdictFor(side: 'a' | 'b', strength: 'better' | 'much_better' = 'better'): CanonicalPairLabel {
  return `${side}_${strength}` as CanonicalPairLabel
}

/**
 * The demo project after a judge run: two runs asked in both display orders (one also naming fatal flaws, one with
 * a failed and an unreadable call), an imported model source, three annotators answering the pairwise instrument,
 * two of them auditing flaws, and one adjudication.
 */
export async function demoAfterJudgeRun(path: string): Promise<Project> {
  const { Project: ProjectClass } = await import('../../../src/main/store/project')
  const { loadDemo } = await import('../../../src/main/demo/load-demo')
  const project = await ProjectClass.create(path)
  await loadDemo(project)
  const pairs = project.db.prepare(`SELECT id, payload FROM items WHERE kind = 'proposal-pair' ORDER BY id`).all() as { id: number; payload: string }[]
  const truth = pairs.map((p) => {
    const payload = JSON.parse(p.payload) as { label: CanonicalPairLabel }
    return { id: p.id, side: payload.label.charAt(0) as 'a' | 'b' }
  })
  const flip = (s: 'a' | 'b'): 'a' | 'b' => (s === 'a' ? 'b' : 'a')
  const strong = addRun(project, { instrument: 'pairwise-preference', judge: 'claude-judge', provider: 'anthropic', model: 'claude-sonnet-4', bothOrders: true })
  const weak = addRun(project, { instrument: 'pairwise-preference', judge: 'gpt-judge', provider: 'openai', model: 'gpt-4.1', bothOrders: true })
  const strongCalls: CallSpec[] = []
  const weakCalls: CallSpec[] = []
  truth.forEach((t, i) => {
    for (const order of [0, 1]) {
      const swapped = order === 1
      const strongSide = i % 4 === 3 ? flip(t.side) : t.side
      strongCalls.push({
        item: t.id,
        order,
        swapped,
        judgement: { verdict: verdictFor(strongSide, i % 3 === 0 ? 'much_better' : 'better'), fatal_flaws: i % 5 === 0 ? [{ proposal: flip(strongSide), description: 'wrong formula' }] : [] }
      })
      if (i === 2 && order === 1) weakCalls.push({ item: t.id, order, swapped, status: 'failed' })
      else if (i === 5 && order === 0) weakCalls.push({ item: t.id, order, swapped, status: 'unparseable' })
      // The weaker judge prefers whichever proposal it was shown first.
      else weakCalls.push({ item: t.id, order, swapped, judgement: { verdict: verdictFor(swapped ? 'b' : 'a') } })
    }
  })
  addCalls(project, strong, strongCalls)
  addCalls(project, weak, weakCalls)
  annotate(project, 'pairwise-preference', truth.map((t, i) => ({ item: t.id, judgement: { verdict: verdictFor(i % 2 ? t.side : flip(t.side)) } })), { model: 'gemini-2.5-pro' })
  const people = ['Ada', 'Ben', 'Chen']
  people.forEach((person, k) => {
    annotate(
      project,
      'pairwise-preference',
      truth.map((t, i) => ({ item: t.id, swapped: (i + k) % 2 === 0, judgement: { verdict: verdictFor((i + k) % 5 === 0 ? flip(t.side) : t.side) } })),
      { human: person }
    )
  })
  annotate(
    project,
    'flaw-audit',
    truth.filter((_, i) => i % 3 === 0).map((t) => ({ item: t.id, judgement: { flaws: [{ side: flip(t.side), type: 'unsound_method', severity: 'fatal', evidence: 'Proposal', note: '' }] } })),
    { human: 'Ada' }
  )
  project.write(() => {
    project.db
      .prepare(`INSERT INTO adjudications (id, item_id, instrument_id, judgement, reason, curator) VALUES ('adj-1', ?, 'pairwise-preference', ?, 'annotators split', 'curator')`)
      .run(truth[0]?.id, JSON.stringify({ verdict: verdictFor(truth[0]?.side ?? 'a') }))
  })
  return project
}

/**
 * Labelled human-vs-AI proposal pairs (four generating systems, eight cohorts) with three judge sources: two runs
 * asked in both display orders with a few failed and unreadable calls, and one imported model source. The same
 * project, at 20,000 pairs, is the report benchmark's.
 */
export async function syntheticPairsProject(path: string, pairs: number): Promise<Project> {
  const { Project: ProjectClass } = await import('../../../src/main/store/project')
  const systems = ['ai-scientist', 'idea-agent', 'proposer-v2', 'storm']
  const verdicts = ['a_much_better', 'a_better', 'b_better', 'b_much_better'] as const
  let state = 7
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
  const project = await ProjectClass.create(path)
  const items: NewItem[] = Array.from({ length: pairs }, (_, i) => {
    const humanOnA = i % 2 === 0
    const generator = systems[i % systems.length] as string
    return {
      kind: 'proposal-pair',
      externalId: `pair-${i}`,
      set: `cohort-${i % 8}`,
      split: i % 5 === 0 ? 'test' : 'dev',
      payload: {
        pair_id: `pair-${i}`,
        cohort: `cohort-${i % 8}`,
        a: { markdown: '# A\n\nProposal.', origin: humanOnA ? 'human' : 'ai', ...(humanOnA ? {} : { generator }) },
        b: { markdown: '# B\n\nProposal.', origin: humanOnA ? 'ai' : 'human', ...(humanOnA ? { generator } : {}) },
        label: verdicts[Math.floor(random() * 4)],
        label_source: 'citations'
      }
    }
  })
  const ids = project.write((db) => insertItems(db, items))
  const labels = items.map((item) => (item.payload as { label: (typeof verdicts)[number] }).label)
  project.write((db) => {
    const judge = db.prepare(`INSERT INTO judges (name, provider, model) VALUES (?, 'openai', ?)`)
    const run = db.prepare(`INSERT INTO runs (instrument_id, judge_id, template_id, template_version, seed, both_orders, trials, status) VALUES ('pairwise-preference', ?, 'pairwise-ranker', 1, '42', 1, 1, 'done')`)
    const call = db.prepare(
      `INSERT INTO model_calls (run_id, item_id, trial, order_index, request_hash, display, prompt, judgement, status) VALUES (?, ?, 0, ?, ?, ?, '{}', ?, ?)`
    )
    for (const [r, skill] of [0.7, 0.6].entries()) {
      const judgeId = Number(judge.run(`judge-${r}`, `gpt-${r}`).lastInsertRowid)
      const runId = Number(run.run(judgeId).lastInsertRowid)
      ids.forEach((itemId, i) => {
        for (const order of [0, 1]) {
          const roll = random()
          const status = roll < 0.02 ? 'failed' : roll < 0.03 ? 'unparseable' : 'ok'
          const truth = labels[i] as (typeof verdicts)[number]
          const verdict = random() < skill ? truth : verdicts[(verdicts.indexOf(truth) + 2) % 4]
          call.run(runId, itemId, order, `h${runId}-${itemId}-${order}`, JSON.stringify({ swapped: order === 1 }), status === 'ok' ? JSON.stringify({ verdict }) : null, status)
        }
      })
    }
    ids.forEach((itemId, i) => {
      const truth = labels[i] as (typeof verdicts)[number]
      const verdict = random() < 0.55 ? truth : verdicts[3 - verdicts.indexOf(truth)]
      appendAnnotation(db, { itemId, instrumentId: 'pairwise-preference', instrumentVersion: 1, annotatorId: null, sourceKind: 'model', sourceName: 'imported-judge', judgement: { verdict }, origin: 'import' })
    })
  })
  return project
}

/**
 * The demo with `n` formula-error probes made from its pairs (seed 11), each checked by an expert whose check says the
 * planted flaw is there and, where `onlyChange(k)`, the only change (so verified; rejected otherwise). Returns the
 * project's path and its probes, the project closed.
 */
export async function demoWithCheckedProbes(path: string, n: number, onlyChange: (k: number) => boolean = () => true): Promise<{ path: string; probes: Array<{ itemId: number; externalId: string }> }> {
  const { runCli } = await import('../../support/cli')
  const { Project: ProjectClass } = await import('../../../src/main/store/project')
  const { listProbes } = await import('../../../src/main/store/probes')
  const { writeFileSync } = await import('node:fs')
  const cli = async (...args: string[]) => {
    const r = await runCli(...args)
    if (r.code !== 0) throw new Error(`assay ${args[0]}: ${r.stderr}`)
  }
  await cli('new', path, '--demo')
  await cli('probe', 'make', path, '--kind', 'formula-error', '--from', 'demo-pairs', '--n', String(n), '--seed', '11')
  const project = await ProjectClass.open(path)
  const probes = listProbes(project.db)
  project.close()
  const checks = probes.map((p, k) => JSON.stringify({ item: p.externalId, instrument: 'probe-check', source: 'Expert', source_kind: 'human', judgement: { flaw_present: true, only_change: onlyChange(k), severity: 'major', note: '' } }))
  writeFileSync(`${path}.checks.jsonl`, `${checks.join('\n')}\n`)
  await cli('import', path, 'labels', `${path}.checks.jsonl`)
  return { path, probes }
}
