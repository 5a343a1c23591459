import { InvalidArgumentError, type Command } from 'commander'
import type { JudgeInput, RunEstimate, RunSpec } from '../../../shared/contract/run-operations'
import type { InstrumentId } from '../../../shared/instruments/types'
import { instrumentArg, instrumentHelp } from '../instrument-arg'
import { kindNeeded } from '../../../shared/items/imports'
import { SPLITS, type ItemKind, type Split } from '../../../shared/items/kinds'
import { PROVIDER_KINDS, type JudgeConfig } from '../../providers/types'
import type { EventPayload } from '../../../shared/contract/operations'
import type { RunExecuteResult } from '../../../shared/contract/run-execute-operations'
import { withProject, type OpenFor } from '../contract'
import { costText, formatUsd } from '../../../shared/cost-text'
import { EXIT_FAILURE, ExitCode, type CliIO } from '../run'

/** The exit code of a run stopped by Ctrl+C (128 + SIGINT), as shells report it. */
export const EXIT_CANCELLED = 130

/** The judge's own settings come straight from the flags of the same names. */
interface JudgeCliOptions extends JudgeConfig {
  instrument: string
  keyName?: string
  apiKeyEnv?: string
  judgeName?: string
  template?: string
  concurrency?: number
  seed?: string
  viewer?: string
  set?: string
  split?: Split
  limit?: number
  bothOrders?: boolean
  trials?: number
  timeout?: number
  attempts?: number
  batch?: boolean
  pollInterval?: number
  scheme?: 'single' | 'multi-stage' | 'omega-point'
  generate?: 'hypotheses' | 'ideas' | 'tasks' | 'responses'
  outSet?: string
  tokenBudgetRun?: number
  keepLeaky?: boolean
  dryRun?: boolean
  json?: boolean
}

function choice<T extends string>(values: readonly T[]) {
  return (value: string): T => {
    if (!(values as readonly string[]).includes(value)) throw new InvalidArgumentError(`expected one of ${values.join(', ')}`)
    return value as T
  }
}

function integer(min: number) {
  return (value: string): number => {
    const n = Number(value)
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`expected a whole number of at least ${min}`)
    return n
  }
}

function positiveNumber(value: string): number {
  const n = Number(value)
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number')
  return n
}

function nonNegativeNumber(value: string): number {
  const n = Number(value)
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('expected a number of at least 0')
  return n
}

export function registerJudge(program: Command, io: CliIO): void {
  program
    .command('judge')
    .description('Ask a model judge an instrument about the items of a project: every call recorded, resumable, within budget')
    .argument('<file>', 'the .assay project file')
    .requiredOption('--instrument <id>', instrumentHelp(['generation']), instrumentArg(['generation']))
    .requiredOption('--provider <kind>', PROVIDER_KINDS.join(' | '), choice(PROVIDER_KINDS))
    .requiredOption('--model <name>', 'the model, as the provider names it')
    .option('--base-url <url>', 'the API root (required for openai-compatible: vLLM, Ollama, llama.cpp, xAI…)')
    .option('--company <name>', 'who trained the model, where the name does not say (panel rules exclude a generator’s company)')
    .option('--reasoning-effort <e>', 'minimal | low | medium | high', choice(['minimal', 'low', 'medium', 'high'] as const))
    .option('--temperature <t>', 'sampling temperature (not sent where the API refuses it)', nonNegativeNumber)
    .option('--max-tokens <n>', 'answer token limit', integer(1))
    .option('--structured-output', 'ask the API to constrain JSON answers to the instrument’s schema')
    .option('--key-name <NAME>', 'read the key from ASSAY_KEY_<NAME> (a compatible endpoint, a second account)')
    .option('--api-key-env <VAR>', 'read the key from this environment variable')
    .option('--judge-name <name>', 'name of the judge configuration (default: the model name)')
    .option('--template <ref>', 'prompt template, id or id@version (default: the instrument’s built-in one)')
    .option('--concurrency <n>', 'requests in flight at once (default 8)', integer(1))
    .option('--seed <s>', 'seed of the display orders (default: the project’s)')
    .option('--viewer <key>', 'display-order key; empty (default) reproduces the published per-item order')
    .option('--set <name>', 'only items of this set')
    .option('--split <split>', `only items of this split (${SPLITS.join(', ')})`, choice(SPLITS))
    .option('--limit <n>', 'only the first n items', integer(1))
    .option('--both-orders', 'ask every pair in both orders, to measure position consistency')
    .option('--trials <n>', 'repeat every call n times as separate samples (default 1)', integer(1))
    .option('--timeout <seconds>', 'deadline of one try of a call (default 900)', positiveNumber)
    .option('--attempts <n>', 'tries per call for transient failures (default 2)', integer(1))
    .option('--batch', 'use the provider’s batch API (about half price; answers within 24 h)')
    .option('--poll-interval <seconds>', 'how often a batch is polled (default 30)', positiveNumber)
    .option('--scheme <s>', 'generation: single | multi-stage | omega-point', choice(['single', 'multi-stage', 'omega-point'] as const))
    .option('--generate <what>', 'generation: hypotheses (for rediscovery tasks, default) | ideas (two per keyword of the selected idea items) | tasks (composed from the selected papers and preprint pairs; --scheme single) | responses (answers to the selected FrontierScience problems, one per --trials; --scheme single)', choice(['hypotheses', 'ideas', 'tasks', 'responses'] as const))
    .option('--out-set <name>', 'generation: the set the new hypothesis sets go into (default generated-run<N>)')
    .option('--token-budget-run <id>', 'generation, multi-stage: ask further requests while they bring the generated tokens closer to this Omega Point run’s', integer(1))
    .option('--keep-leaky', 'generation of hypotheses: also use tasks a leak audit found leaking (the protocol drops them; the run records the override)')
    .option('--dry-run', 'print the number of calls and the estimated cost; send and write nothing')
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      [
        '',
        'Keys come from the environment: OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, ASSAY_KEY_<NAME> with',
        '--key-name NAME, or the variable named by --api-key-env. Keys are never written to the project.',
        'A run killed at any point is resumed by running the same command again: answered calls are not repeated.',
        'Exit status: 0 all calls answered; 1 some calls failed (run again to retry them) or the run failed; 130 cancelled.'
      ].join('\n')
    )
    .action(async (file: string, opts: JudgeCliOptions) => {
      // `--api-key-env VAR`: every key of this command is read from VAR.
      const run = () => judgeCommand(file, opts, io)
      if (!opts.apiKeyEnv) return run()
      const [{ withRunEnvironment }, { EnvKeyStore }] = await Promise.all([import('../../api/run-environment'), import('../../secrets/key-stores')])
      const keyStore = new EnvKeyStore(undefined, opts.apiKeyEnv)
      return withRunEnvironment((before) => ({ ...before, keyStore }), run)
    })
}

function judgeInput(opts: JudgeCliOptions): JudgeInput {
  return {
    ...(opts.judgeName ? { name: opts.judgeName } : {}),
    provider: opts.provider,
    model: opts.model,
    ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}),
    ...(opts.company ? { company: opts.company } : {}),
    options: {
      ...(opts.reasoningEffort ? { reasoningEffort: opts.reasoningEffort } : {}),
      ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
      ...(opts.maxTokens !== undefined ? { maxTokens: opts.maxTokens } : {}),
      ...(opts.structuredOutput ? { structuredOutput: true } : {}),
      ...(opts.keyName ? { keyName: opts.keyName } : {})
    }
  }
}

function runSpec(opts: JudgeCliOptions): Omit<RunSpec, 'judgeId'> {
  return {
    instrument: opts.instrument as RunSpec['instrument'],
    ...(opts.template ? { template: opts.template } : {}),
    ...(opts.set ? { set: opts.set } : {}),
    ...(opts.split ? { split: opts.split } : {}),
    ...(opts.limit ? { limit: opts.limit } : {}),
    ...(opts.seed ? { seed: opts.seed } : {}),
    ...(opts.viewer !== undefined ? { viewer: opts.viewer } : {}),
    ...(opts.bothOrders ? { bothOrders: true } : {}),
    ...(opts.trials ? { trials: opts.trials } : {}),
    ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
    ...(opts.timeout ? { timeoutMs: Math.round(opts.timeout * 1000) } : {}),
    ...(opts.attempts ? { attempts: opts.attempts } : {}),
    ...(opts.batch ? { batch: true } : {}),
    ...(opts.pollInterval ? { pollIntervalMs: Math.max(10, Math.round(opts.pollInterval * 1000)) } : {}),
    ...(opts.scheme ? { scheme: opts.scheme } : {}),
    ...(opts.generate ? { generate: opts.generate } : {}),
    ...(opts.outSet ? { outSet: opts.outSet } : {}),
    ...(opts.tokenBudgetRun ? { tokenBudgetRun: opts.tokenBudgetRun } : {}),
    ...(opts.keepLeaky ? { keepLeaky: true } : {})
  }
}

/** The item kinds a run asks about: the instrument's, or what the generation target works from. */
async function kindsOf(opts: JudgeCliOptions): Promise<ItemKind[]> {
  if (opts.instrument !== 'generation') {
    const { getInstrument } = await import('../../../shared/instruments')
    return [getInstrument(opts.instrument as InstrumentId).itemKind]
  }
  if (opts.generate === 'ideas') return ['idea']
  if (opts.generate === 'tasks') return ['paper', 'preprint-pair']
  if (opts.generate === 'responses') return ['fs-problem']
  return ['rediscovery-task']
}

async function judgeCommand(file: string, opts: JudgeCliOptions, io: CliIO): Promise<void> {
  let priced = true
  let runId: number | null = null
  let lastAt = 0
  let lastLine = ''
  const onEvent: OpenFor['onEvent'] = (event, payload) => {
    if (event === 'run.starting') {
      const p = payload as EventPayload<'run.starting'>
      runId = p.runId
      priced = p.priced
      if (!opts.json) {
        io.err(`${p.resumed ? 'Resuming' : 'Starting'} run ${p.runId}: ${whatRuns(opts, p)}${p.skippedCount ? `, ${p.skippedCount} skipped` : ''}`)
        for (const s of p.skipped) io.err(`  skipped ${s.externalId}: ${s.reason}`)
      }
    } else if (event === 'run.progress') {
      const p = payload as EventPayload<'run.progress'>
      const now = Date.now()
      const line = progressLine(p, priced)
      if (line === lastLine || (now - lastAt < 1000 && p.done < p.total)) return
      lastAt = now
      lastLine = line
      io.err(line)
    }
  }
  const result = await withProject(file, { mode: 'write', onEvent }, async (project) => {
    // Ctrl+C cancels the run once it has started: finished calls are kept, and the same command resumes it. Before
    // the run starts, and at a second Ctrl+C, the signal does what it does to any process.
    const onSignal = () => {
      process.removeListener('SIGINT', onSignal)
      if (runId === null) process.kill(process.pid, 'SIGINT')
      else void project.call('runs.cancel', { runId })
    }
    process.on('SIGINT', onSignal)
    try {
      return await project.call('runs.execute', { judge: judgeInput(opts), run: runSpec(opts), ...(opts.dryRun ? { dryRun: true } : {}) })
    } finally {
      process.removeListener('SIGINT', onSignal)
    }
  })
  if (result.kind === 'estimate') {
    if (opts.json) io.out(JSON.stringify({ dryRun: true, judge: result.judge.name, ...result.estimate }, null, 2))
    else printEstimate(io, opts, result.judge, result.estimate)
    return
  }
  if (result.kind === 'nothing_to_ask') {
    const needs = result.items === 0 && result.skippedCount === 0 ? `${opts.instrument} needs ${kindNeeded(await kindsOf(opts), file)}` : null
    if (opts.json) io.out(JSON.stringify({ runId: null, outcome: 'nothing_to_ask', skippedCount: result.skippedCount, skipped: result.skipped, ...(needs ? { needs } : {}) }, null, 2))
    else {
      io.err(`assay: nothing to ask: no item of the selection can be put to ${opts.instrument}${result.skippedCount ? ` (${result.skippedCount} skipped)` : ''}; no run was recorded`)
      if (needs) io.err(`  ${needs}`)
      for (const s of result.skipped.slice(0, 5)) io.err(`  skipped ${s.externalId}: ${s.reason}`)
    }
    throw new ExitCode(EXIT_FAILURE)
  }
  if (result.kind === 'could_not_start') {
    if (opts.json) io.out(JSON.stringify({ runId: null, outcome: 'could_not_start', error: result.error, requests: result.requests, skipped: result.skipped }, null, 2))
    else io.err(`assay: the run could not start: ${result.error}; no run was recorded`)
    throw new ExitCode(EXIT_FAILURE)
  }
  const { kind: _kind, ...ran } = result
  if (opts.json) io.out(JSON.stringify(ran, null, 2))
  else {
    printResult(io, ran, priced)
    const { responses, tasks, ideas, sets } = ran
    if (responses) io.out(`${responses.length} response${responses.length === 1 ? '' : 's'} stored as problems to grade${responses.length ? ` (set ${JSON.stringify(opts.outSet ?? `generated-run${ran.runId}`)})` : ''}`)
    if (tasks) io.out(`${tasks.length} rediscovery task${tasks.length === 1 ? '' : 's'} composed${tasks.length ? `: ${tasks.join(', ')}` : ''}`)
    if (ideas) io.out(`${ideas.length} idea${ideas.length === 1 ? '' : 's'} generated, ${ideas.filter((i) => i.selected).length} chosen by the generator`)
    if (sets) io.out(`${sets.length} hypothesis set${sets.length === 1 ? '' : 's'} generated${sets.length ? `: ${sets.join(', ')}` : ''}`)
  }
  if (ran.outcome === 'cancelled') throw new ExitCode(EXIT_CANCELLED)
  if (ran.outcome === 'failed' || ran.counts.failed > 0) throw new ExitCode(EXIT_FAILURE)
}

/** What the starting line says the run asks. */
function whatRuns(opts: JudgeCliOptions, p: EventPayload<'run.starting'>): string {
  if (opts.instrument !== 'generation') return `${opts.instrument} by ${p.judge.name} (${p.judge.provider}), ${p.calls} call${p.calls === 1 ? '' : 's'} on ${p.items} item${p.items === 1 ? '' : 's'}`
  const unit = opts.generate === 'ideas' ? 'keyword' : opts.generate === 'tasks' ? 'paper' : opts.generate === 'responses' ? 'problem' : 'task'
  const trials = opts.generate === 'responses' && (opts.trials ?? 1) > 1 ? `, ${opts.trials} trials each` : ''
  return `${opts.scheme} generation${opts.generate === 'ideas' ? ' of ideas' : ''} by ${p.judge.name} (${p.judge.provider}) on ${p.items} ${unit}${p.items === 1 ? '' : 's'}${trials}`
}

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000)
  if (s < 60) return `${s}s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`
}

export { formatUsd }

/** `priced`: the judge's model has a price; without one the cost so far is unknown, not $0. */
export function progressLine(p: EventPayload<'run.progress'>, priced = true): string {
  const pct = p.total ? Math.floor((p.done / p.total) * 100) : 100
  const eta = p.etaMs === null ? '' : p.done < p.total ? ` · ETA ${formatDuration(p.etaMs)}` : ''
  return `run ${p.runId}: ${p.done}/${p.total} done (${pct}%) · ${p.failed} failed · ${priced ? formatUsd(p.costUsd) : 'price unknown'}${eta}`
}

function printEstimate(io: CliIO, opts: JudgeCliOptions, judge: { name: string; provider: string; model: string }, e: RunEstimate): void {
  io.out(`Dry run: ${opts.instrument} by ${judge.name} (${judge.provider}) with ${e.template}${e.batch ? ', batch API' : ''}`)
  io.out(`  items ${e.items}${e.skipped ? ` (${e.skipped} skipped)` : ''} · calls ${e.calls} · cached ${e.cached} · to send ${e.toSend}`)
  io.out(`  tokens ≈ ${e.inputTokens.toLocaleString('en-US')} in + ${e.outputTokens.toLocaleString('en-US')} out (prompt length / 4; answer limit assumed)`)
  if (e.costUsd === null || !e.price) io.out(`  cost: unknown — no price for ${judge.provider} ${judge.model}; add one to the project's price table`)
  else {
    io.out(
      `  cost ≈ ${formatUsd(e.costUsd)} at $${e.price.inputPerMtok}/$${e.price.outputPerMtok} per million tokens ` +
        `(${e.price.model}, ${e.price.source === 'project' ? "project's price table" : 'default price'}${e.batch ? `, batch discount ${e.price.batchDiscount * 100}%` : ''})`
    )
  }
  for (const s of e.skippedItems.slice(0, 5)) io.out(`  skipped ${s.externalId}: ${s.reason}`)
}

type RanResult = Pick<Extract<RunExecuteResult, { kind: 'ran' }>, 'runId' | 'outcome' | 'counts' | 'requests' | 'fatal'>

/** The run's last line: its counts and its cost (`priced`: the judge's model has a price). */
export function resultLine(r: Omit<RanResult, 'fatal'>, priced = true): string {
  const c = r.counts
  // Without a price nothing answered still costs nothing, said as such, after progress lines that said "price unknown".
  const cost = !priced && c.costUsd === 0 && c.unpriced === 0 ? `${formatUsd(0)} (no call answered; no price for this model)` : costText(c.costUsd, c.unpriced)
  const what = r.outcome === 'done' ? 'finished' : r.outcome === 'cancelled' ? 'cancelled (run the same command to resume)' : 'stopped'
  return (
    `Run ${r.runId} ${what}: ${c.ok} ok, ${c.unparseable} unparseable, ${c.failed} failed, ${c.pending} pending of ${c.total}; ` +
    `${c.cached} from cache; ${r.requests} request${r.requests === 1 ? '' : 's'} sent; cost ${cost}`
  )
}

function printResult(io: CliIO, r: RanResult, priced = true): void {
  const c = r.counts
  io.out(resultLine(r, priced))
  if (r.fatal) io.err(`assay: ${r.fatal}`)
  if (c.failed > 0 && r.outcome !== 'failed') io.err(`${c.failed} call${c.failed === 1 ? '' : 's'} failed after retries; run the same command again to retry them`)
}
