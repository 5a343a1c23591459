import type { HandlerGroup } from './types'
import { markPromptRevision } from '../../store/exposures'
import { getInstrument } from '../../../shared/instruments'
import type { JudgeListEntry, RunListEntry, runOperations } from '../../../shared/contract/run-operations'
import { AssayError } from '../../../shared/errors'
import type { ApiContext } from '../context'
import {
  addUserTemplate,
  callDetail,
  callsPage,
  createJudge,
  estimateRun,
  getJudge,
  getRunSummary,
  listJudges,
  listPrices,
  listRunSummaries,
  listTemplates,
  matchPanelOfRuns,
  parseRunSpec,
  prepareRun,
  providerFor,
  runRegistry,
  seedDefaultPrices,
  DEFAULT_PRICES,
  setPrice
} from '../../runner'
import { runEnvironment } from '../run-environment'
import { runExecuteHandlers } from './run-execute'
import type { runExecuteOperations } from '../../../shared/contract/run-execute-operations'
import { archivedJudgeIds, runArchiveStates, setArchived } from '../../store/archive'
import type { Db } from '../../store/database'

async function keyStatus() {
  const store = runEnvironment().keyStore
  return { storage: store.info, keys: await store.list() }
}

/** Starts a prepared run in the background; progress and the end are pushed as events. */
function launch(ctx: ApiContext, runId: number): void {
  ctx.events.emit('project.changed', { what: 'runs' })
  runRegistry
    .run(ctx.project, runId, runEnvironment(), (p) => ctx.events.emit('run.progress', p))
    .catch(() => {
      // The run's status and its calls' errors are the record; the workbench reads them from runs.get.
    })
    .finally(() => ctx.events.emit('project.changed', { what: 'runs' }))
}

const isActive = (ctx: ApiContext) => (id: number) => runRegistry.isActive(ctx.project, id)

/** Runs with their archive marks; archived ones (or runs of an archived judge) only when asked for. */
function runList(ctx: ApiContext, includeArchived: boolean): RunListEntry[] {
  const states = runArchiveStates(ctx.project.db)
  return listRunSummaries(ctx.project.db, isActive(ctx))
    .map((r) => ({ ...r, archived: states.get(r.id)?.archived ?? false, judgeArchived: states.get(r.id)?.judgeArchived ?? false }))
    .filter((r) => includeArchived || !(r.archived || r.judgeArchived))
}

function runEntry(ctx: ApiContext, runId: number): RunListEntry {
  const state = runArchiveStates(ctx.project.db).get(runId)
  return { ...getRunSummary(ctx.project.db, runId, isActive(ctx)), archived: state?.archived ?? false, judgeArchived: state?.judgeArchived ?? false }
}

function judgeList(db: Db, includeArchived: boolean): JudgeListEntry[] {
  const archived = archivedJudgeIds(db)
  return listJudges(db)
    .map((j) => ({ ...j, archived: archived.has(j.id) }))
    .filter((j) => includeArchived || !j.archived)
}

/** Archives or restores a run (an active run cannot be archived: stop it first). */
function archiveRun(ctx: ApiContext, runId: number, archived: boolean): RunListEntry {
  if (archived && runRegistry.isActive(ctx.project, runId)) throw new AssayError('conflict', `Run ${runId} is running; cancel it before archiving`)
  ctx.project.write((db) => setArchived(db, 'run', runId, archived))
  ctx.events.emit('project.changed', { what: 'runs' })
  return runEntry(ctx, runId)
}

function archiveJudge(ctx: ApiContext, judgeId: number, archived: boolean): JudgeListEntry {
  ctx.project.write((db) => setArchived(db, 'judge', judgeId, archived))
  ctx.events.emit('project.changed', { what: 'judges' })
  ctx.events.emit('project.changed', { what: 'runs' })
  return { ...getJudge(ctx.project.db, judgeId), archived }
}

export const runHandlers: HandlerGroup<keyof typeof runOperations | keyof typeof runExecuteOperations> = {
  ...runExecuteHandlers,
  'judges.list': (input, ctx) => ({ judges: judgeList(ctx.project.db, input.includeArchived ?? false) }),
  'judges.archive': (input, ctx) => archiveJudge(ctx, input.judgeId, true),
  'judges.restore': (input, ctx) => archiveJudge(ctx, input.judgeId, false),
  'judges.create': (input, ctx) => {
    const judge = ctx.project.write((db) => createJudge(db, input))
    ctx.events.emit('project.changed', { what: 'judges' })
    return judge
  },
  'templates.list': (input, ctx) => ({ templates: listTemplates(ctx.project.db, input.instrument) }),
  'templates.create': (input, ctx) => {
    const t = ctx.project.write((db) => {
      const added = addUserTemplate(db, input)
      markPromptRevision(db, getInstrument(input.instrument).itemKind, `${added.id}@${added.version}`, 'curator')
      return added
    })
    ctx.events.emit('project.changed', { what: 'templates' })
    return t
  },
  // Listing writes nothing (a read-only file can be listed): until the first run seeds the table, the defaults are
  // what the project would use.
  'prices.list': (_input, ctx) => {
    const own = listPrices(ctx.project.db)
    return own.length ? { prices: own, source: 'project' } : { prices: [...DEFAULT_PRICES], source: 'default' }
  },
  'prices.set': (input, ctx) => {
    ctx.project.write((db) => {
      seedDefaultPrices(db)
      setPrice(db, input)
    })
    return { prices: listPrices(ctx.project.db), source: 'project' }
  },
  'keys.status': () => keyStatus(),
  'keys.set': async (input) => {
    await runEnvironment().keyStore.set(input.ref, input.key)
    return keyStatus()
  },
  'keys.delete': async (input) => {
    await runEnvironment().keyStore.delete(input.ref)
    return keyStatus()
  },
  'runs.estimate': (input, ctx) => {
    const spec = parseRunSpec(input)
    return estimateRun(ctx.project, spec, getJudge(ctx.project.db, spec.judgeId)).estimate
  },
  'runs.start': async (input, ctx) => {
    const spec = parseRunSpec(input)
    // A missing key is reported now, before anything is recorded.
    await providerFor(getJudge(ctx.project.db, spec.judgeId), runEnvironment())
    const prepared = prepareRun(ctx.project, spec)
    if (runRegistry.isActive(ctx.project, prepared.runId)) throw new AssayError('conflict', `Run ${prepared.runId} is running already`)
    launch(ctx, prepared.runId)
    return { runId: prepared.runId, resumed: prepared.resumed }
  },
  'runs.resume': async (input, ctx) => {
    const run = getRunSummary(ctx.project.db, input.runId, isActive(ctx))
    await providerFor(getJudge(ctx.project.db, run.judge.id), runEnvironment())
    if (runRegistry.isActive(ctx.project, input.runId)) throw new AssayError('conflict', `Run ${input.runId} is running already`)
    launch(ctx, input.runId)
    return { runId: input.runId, resumed: true }
  },
  'runs.cancel': (input, ctx) => ({ cancelled: runRegistry.cancel(ctx.project, input.runId) }),
  'runs.list': (input, ctx) => ({ runs: runList(ctx, input.includeArchived ?? false) }),
  'runs.archive': (input, ctx) => archiveRun(ctx, input.runId, true),
  'runs.restore': (input, ctx) => archiveRun(ctx, input.runId, false),
  'runs.get': (input, ctx) => getRunSummary(ctx.project.db, input.runId, isActive(ctx)),
  'runs.calls': (input, ctx) => callsPage(ctx.project.db, input.runId, input.status, input.offset, input.limit),
  'runs.call': (input, ctx) => callDetail(ctx.project.db, input.callId, 'curator', (fn) => ctx.project.write(fn)),
  'panel.match': (input, ctx) => ({ outcomes: matchPanelOfRuns(ctx.project.db, input.runIds) })
}
