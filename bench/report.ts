import { gatherAuditInput } from '../src/main/audit'
import { appendAnnotation } from '../src/main/store/annotations'
import { insertItems, type NewItem } from '../src/main/store/items'
import { Project } from '../src/main/store/project'
import { buildReport } from '../src/shared/report'
import { median, time, type BenchFigures } from './measure'

const SYSTEMS = ['ai-scientist', 'idea-agent', 'proposer-v2', 'storm']
const VERDICTS = ['a_much_better', 'a_better', 'b_better', 'b_much_better'] as const

/** A small deterministic generator, so every round writes the same project. */
function lcg(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

/**
 * A project with `pairs` labelled human-vs-AI proposal pairs and three judge sources giving 5 judgements per pair
 * in all: two runs asked in both display orders and one imported model source (2 + 2 + 1 per pair).
 */
async function writeReportProject(path: string, pairs: number): Promise<{ project: Project; judgements: number }> {
  const project = await Project.create(path)
  const random = lcg(7)
  const items: NewItem[] = Array.from({ length: pairs }, (_, i) => {
    const humanOnA = i % 2 === 0
    const generator = SYSTEMS[i % SYSTEMS.length] as string
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
        label: VERDICTS[Math.floor(random() * 4)],
        label_source: 'citations'
      }
    }
  })
  const ids = project.write(() => insertItems(project.db, items))
  const labels = items.map((item) => (item.payload as { label: string }).label)
  const db = project.db
  let judgements = 0
  project.write(() => {
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
          const truth = labels[i] as string
          const right = random() < skill
          const verdict = right ? truth : VERDICTS[(VERDICTS.indexOf(truth as (typeof VERDICTS)[number]) + 2) % 4]
          call.run(runId, itemId, order, `h${runId}-${itemId}-${order}`, JSON.stringify({ swapped: order === 1 }), status === 'ok' ? JSON.stringify({ verdict }) : null, status)
          judgements++
        }
      })
    }
    ids.forEach((itemId, i) => {
      const truth = labels[i] as string
      const verdict = random() < 0.55 ? truth : VERDICTS[3 - VERDICTS.indexOf(truth as (typeof VERDICTS)[number])]
      appendAnnotation(db, { itemId, instrumentId: 'pairwise-preference', instrumentVersion: 1, annotatorId: null, sourceKind: 'model', sourceName: 'imported-judge', judgement: { verdict }, origin: 'import' })
      judgements++
    })
  })
  return { project, judgements }
}

/** The floor: one pass over the same rows computing plain accuracy against the label, nothing else. */
function bareAccuracy(project: Project): number {
  const labels = new Map<number, string>()
  for (const r of project.db.prepare(`SELECT id, payload FROM items WHERE kind = 'proposal-pair'`).iterate() as IterableIterator<{ id: number; payload: string }>) {
    labels.set(r.id, (JSON.parse(r.payload) as { label: string }).label.charAt(0))
  }
  let correct = 0
  let judged = 0
  const count = (itemId: number, judgement: string | null) => {
    if (judgement === null) return
    judged++
    if ((JSON.parse(judgement) as { verdict: string }).verdict.charAt(0) === labels.get(itemId)) correct++
  }
  for (const r of project.db.prepare(`SELECT item_id, judgement, status FROM model_calls WHERE status != 'failed'`).iterate() as IterableIterator<{ item_id: number; judgement: string | null }>) {
    count(r.item_id, r.judgement)
  }
  for (const r of project.db.prepare(`SELECT item_id, judgement FROM annotations`).iterate() as IterableIterator<{ item_id: number; judgement: string }>) {
    count(r.item_id, r.judgement)
  }
  return correct / judged
}

/**
 * A full report (gathering from the project file, then every statistic, interval, position test, strength and
 * judge-vs-judge test) over 100,000 judgements from three sources, beside a bare single pass over the same rows
 * computing plain accuracy, measured in the same run.
 */
export async function benchReport(dir: string, pairs = 20_000): Promise<BenchFigures> {
  const { project, judgements } = await writeReportProject(`${dir}/report.assay`, pairs)
  try {
    const reportMs: number[] = []
    const gatherMs: number[] = []
    const buildMs: number[] = []
    const bareMs: number[] = []
    let bare = 0
    for (let round = 0; round < 3; round++) {
      bareMs.push(time(() => (bare = bareAccuracy(project))))
      let input!: ReturnType<typeof gatherAuditInput>
      const g = time(() => (input = gatherAuditInput(project.db, { instrument: 'pairwise-preference' })))
      const b = time(() => buildReport(input, { generatedAt: 'bench' }))
      gatherMs.push(g)
      buildMs.push(b)
      reportMs.push(g + b)
    }
    return {
      judgements,
      sources: 3,
      pairs,
      bootstrap_resamples: 2000,
      full_report_ms: median(reportMs),
      gather_ms: median(gatherMs),
      build_ms: median(buildMs),
      bare_accuracy_pass_ms: median(bareMs),
      report_vs_bare_ratio: median(reportMs) / median(bareMs),
      bare_accuracy: bare
    }
  } finally {
    project.close()
  }
}
