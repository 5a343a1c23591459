import type { RunExecuteResult } from '../../../shared/contract/run-execute-operations'
import type { Judge, RunProgress } from '../../runner'
import { runEnvironment } from '../run-environment'
import type { HandlerGroup } from './types'

// A run waited on (the command line's `assay judge`, a script): checked before any write, then run to its end.

const named = (j: Judge) => ({ id: j.id, name: j.name, provider: j.provider, model: j.model })

export const runExecuteHandlers: HandlerGroup<'runs.execute'> = {
  'runs.execute': async (input, ctx): Promise<RunExecuteResult> => {
    // The runner and the model SDKs load only when a judge runs.
    const runner = await import('../../runner')
    const { project } = ctx
    const env = runEnvironment()
    const specFor = (judge: Judge) => runner.parseRunSpec({ ...input.run, judgeId: Math.max(judge.id, 1) })
    // A judge not saved yet is planned as a draft (id 0; the spec needs a positive id to validate).
    const draft = runner.draftJudge(project.db, input.judge)
    if (input.dryRun) return { kind: 'estimate', judge: named(draft), estimate: runner.estimateRun(project, specFor(draft), draft).estimate }

    // A run that cannot start records nothing: the key is checked and the items planned before any write.
    await runner.providerFor(draft, env)
    const { estimate } = runner.estimateRun(project, specFor(draft), draft)
    if (estimate.calls === 0) return { kind: 'nothing_to_ask', items: estimate.items, skipped: estimate.skippedItems, skippedCount: estimate.skipped }

    const judge = project.write((db) => runner.ensureJudge(db, input.judge))
    const prepared = runner.prepareRun(project, specFor(judge))
    ctx.events.emit('run.starting', {
      runId: prepared.runId,
      resumed: prepared.resumed,
      judge: named(judge),
      items: prepared.plan.items,
      calls: prepared.plan.calls.length,
      skippedCount: prepared.plan.skipped.length,
      skipped: prepared.plan.skipped.slice(0, 5),
      priced: runner.priceFor(project.db, judge.provider, judge.model) !== undefined
    })
    const result = await runner.runRegistry.run(project, prepared.runId, { ...env, progressEveryMs: 250 }, (p: RunProgress) => ctx.events.emit('run.progress', p))
    const c = result.counts
    const generation = input.run.instrument === 'generation'
    // Not one answer from a new run (a wrong model name, an endpoint that does not answer): it could not start.
    if (!prepared.resumed && !generation && result.outcome !== 'cancelled' && c.ok + c.unparseable === 0 && (c.failed > 0 || result.outcome === 'failed')) {
      const { discarded, firstError } = project.write((db) => runner.discardUnansweredRun(db, result.runId))
      if (discarded) return { kind: 'could_not_start', error: result.fatal ?? firstError ?? 'every call failed', requests: result.requests, skipped: prepared.plan.skipped }
    }
    const target = generation ? (input.run.generate ?? 'hypotheses') : null
    const db = project.db
    return {
      kind: 'ran',
      runId: result.runId,
      resumed: prepared.resumed,
      outcome: result.outcome,
      requests: result.requests,
      fatal: result.fatal,
      counts: result.counts,
      skipped: prepared.plan.skipped,
      ...(target === 'hypotheses' ? { sets: runner.generatedSetsOf(db, result.runId) } : {}),
      ...(target === 'ideas' ? { ideas: runner.generatedIdeasOf(db, result.runId) } : {}),
      ...(target === 'tasks' ? { tasks: runner.composedTasksOf(db, result.runId) } : {}),
      ...(target === 'responses' ? { responses: runner.responsesOf(db, result.runId) } : {})
    }
  }
}
