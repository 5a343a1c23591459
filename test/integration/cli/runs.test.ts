import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Report } from '../../../src/shared/report'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { Project } from '../../../src/main/store/project'
import { addCalls, addPairs, addRun, demoAfterJudgeRun, verdictFor } from '../report/fixtures'

const tmp = tempDir('assay-runs-cli-')
let path: string

const judgeSources = async (...extra: string[]) => {
  const r = await runCli('report', path, '--instrument', 'pairwise-preference', '--json', ...extra)
  expect(r.stderr).toBe('')
  expect(r.code).toBe(0)
  return (JSON.parse(r.stdout) as Report).sources.filter((s) => s.role === 'judge').map((s) => s.id)
}

beforeAll(async () => {
  path = tmp.file('demo.assay')
  const project = await demoAfterJudgeRun(path)
  project.close()
})
afterAll(() => tmp.cleanup())

describe('assay runs list|archive|restore', () => {
  it('lists runs with status, counts and the archived flag', async () => {
    const r = await runCli('runs', 'list', path)
    expect(r.code).toBe(0)
    const lines = r.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^run\s+instrument\s+judge\s+status\s+done\s+ok\s+failed\s+unparseable\s+skipped\s+archived$/)
    expect(lines.find((l) => l.startsWith('1 '))).toMatch(/pairwise-preference\s+claude-judge\s+done\s+24\/24\s+24\s+0\s+0\s+0$/)
    expect(lines.find((l) => l.startsWith('2 '))).toMatch(/gpt-judge\s+done\s+24\/24\s+22\s+1\s+1\s+0$/)
  })

  it('archives a run: kept in the file, left out of the list and the report until restored', async () => {
    expect(await judgeSources()).toContain('run:2')
    const archived = await runCli('runs', 'archive', path, '2')
    expect(archived.code).toBe(0)
    expect(archived.stdout).toMatch(/Archived run 2/)

    const list = await runCli('runs', 'list', path)
    expect(list.stdout).not.toMatch(/^2 /m)
    const all = JSON.parse((await runCli('runs', 'list', path, '--archived', '--json')).stdout) as { runs: Array<{ id: number; archived: boolean; counts: { total: number } }> }
    expect(all.runs.find((r) => r.id === 2)).toMatchObject({ archived: true, counts: { total: 24 } })
    expect(all.runs.find((r) => r.id === 1)).toMatchObject({ archived: false })

    expect(await judgeSources()).not.toContain('run:2')
    expect(await judgeSources('--archived')).toContain('run:2')

    expect((await runCli('runs', 'restore', path, '2')).code).toBe(0)
    expect(await judgeSources()).toContain('run:2')
  })

  it('archives a judge, which hides all its runs', async () => {
    expect((await runCli('runs', 'archive', path, '1', '--judge')).code).toBe(0)
    const list = await runCli('runs', 'list', path, '--archived')
    expect(list.stdout.split('\n').find((l) => l.startsWith('1 '))).toMatch(/judge archived$/)
    expect(await judgeSources()).not.toContain('run:1')
    expect((await runCli('runs', 'judges', path)).stdout).toMatch(/1\s+claude-judge\s+anthropic\s+claude-sonnet-4\s+archived/)
    expect((await runCli('runs', 'restore', path, '1', '--judge')).code).toBe(0)
    expect(await judgeSources()).toContain('run:1')
  })

  it('refuses an id that names no run, and a bad id as a usage error', async () => {
    const missing = await runCli('runs', 'archive', path, '99')
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/No run 99/)
    expect((await runCli('runs', 'archive', path, 'two')).code).toBe(2)
  })
})

describe('assay report --source', () => {
  it('keeps only the named judges; people and criteria stay', async () => {
    const all = await judgeSources()
    expect(all.length).toBeGreaterThan(2)
    expect(await judgeSources('--source', 'run:1')).toEqual(['run:1'])
    expect((await judgeSources('--source', 'run:1', '--source', 'run:2')).sort()).toEqual(['run:1', 'run:2'])
    const r = await runCli('report', path, '--instrument', 'pairwise-preference', '--json', '--source', 'run:1')
    const report = JSON.parse(r.stdout) as Report
    expect(report.sources.some((s) => s.kind === 'annotator')).toBe(true)
    expect(report.criteria.length).toBeGreaterThan(0)
  })

  it('names an unknown source and the ones there are', async () => {
    const r = await runCli('report', path, '--instrument', 'pairwise-preference', '--source', 'run:9')
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/No judge source "run:9" in this report; judges: .*run:1, run:2/)
  })
})

describe('archiving through the workbench operations', () => {
  it('archives and restores runs and judges; lists and reports leave them out unless asked', async () => {
    const { dispatch } = await import('../../../src/main/api/dispatch')
    const { contextFor } = await import('../../support/project')
    const path = tmp.file('api.assay')
    const project = await demoAfterJudgeRun(path)
    // The fixture writes its runs directly; a run started by Assay also records its display-order key and batch mode.
    project.db.prepare(`UPDATE runs SET options = '{"viewer":"","batch":false}'`).run()
    const ctx = contextFor(project)
    const changed: unknown[] = []
    ctx.hub.subscribe((event, payload) => event === 'project.changed' && changed.push(payload))
    const ok = async (op: string, input: unknown) => {
      const env = await dispatch(ctx, op, input)
      if (!env.ok) throw new Error(`${op}: ${env.error.message}`)
      return env.value as any
    }
    const runIds = async (input: unknown = {}) => ((await ok('runs.list', input)).runs as Array<{ id: number }>).map((r) => r.id).sort()
    const judges = async () =>
      (((await ok('report.build', { instrument: 'pairwise-preference' })) as Report).sources.filter((s) => s.role === 'judge').map((s) => s.id))

    expect(await ok('runs.archive', { runId: 2 })).toMatchObject({ id: 2, archived: true, judgeArchived: false })
    expect(changed).toContainEqual({ what: 'runs' })
    expect(await runIds()).toEqual([1])
    expect(await runIds({ includeArchived: true })).toEqual([1, 2])
    expect(await judges()).not.toContain('run:2')
    const withArchived = (await ok('report.build', { instrument: 'pairwise-preference', includeArchived: true })) as Report
    expect(withArchived.sources.find((s) => s.id === 'run:2')?.detail.archived).toBe(true)
    expect(withArchived.sources.find((s) => s.id === 'run:1')?.detail).not.toHaveProperty('archived')
    expect(await ok('runs.restore', { runId: 2 })).toMatchObject({ id: 2, archived: false })

    expect(await ok('judges.archive', { judgeId: 1 })).toMatchObject({ id: 1, name: 'claude-judge', archived: true })
    expect(((await ok('judges.list', {})).judges as Array<{ id: number }>).map((j) => j.id)).not.toContain(1)
    expect(((await ok('judges.list', { includeArchived: true })).judges as Array<{ id: number; archived: boolean }>).find((j) => j.id === 1)?.archived).toBe(true)
    expect(await runIds()).toEqual([2])
    expect(await judges()).not.toContain('run:1')
    expect(await ok('judges.restore', { judgeId: 1 })).toMatchObject({ archived: false })
    expect(await runIds()).toEqual([1, 2])

    expect(await dispatch(ctx, 'runs.archive', { runId: 99 })).toMatchObject({ ok: false, error: { code: 'not_found', message: 'No run 99' } })
    expect(await dispatch(ctx, 'report.build', { instrument: 'pairwise-preference', sources: ['run:9'] })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    project.close()
  }, 120_000)
})

describe('a finished run without one readable answer', () => {
  it('is listed as failed (every call failed) or as no answer (none readable), never as a plain done, with why', async () => {
    const file = tmp.file('no-answers.assay')
    const project = await Project.create(file)
    const ids = [...addPairs(project, [{ id: 'p1' }, { id: 'p2' }]).values()]
    const failed = addRun(project, { instrument: 'pairwise-preference', judge: 'down-judge' })
    addCalls(project, failed, ids.map((item) => ({ item, status: 'failed' as const })))
    const garbled = addRun(project, { instrument: 'pairwise-preference', judge: 'garbled-judge' })
    addCalls(project, garbled, ids.map((item) => ({ item, status: 'unparseable' as const })))
    const fine = addRun(project, { instrument: 'pairwise-preference', judge: 'fine-judge' })
    addCalls(project, fine, ids.map((item) => ({ item, judgement: { verdict: verdictFor('a'), analysis: '' } })))
    project.close()
    const text = (await runCli('runs', 'list', file)).stdout
    const row = (id: number) => text.split('\n').find((l) => l.startsWith(`${id} `))
    expect(row(failed)).toMatch(/down-judge\s+failed\s/)
    expect(row(garbled)).toMatch(/garbled-judge\s+no answer\s/)
    expect(row(fine)).toMatch(/fine-judge\s+done\s/)
    expect(text).toContain(`run ${failed} failed: every call failed (2 of 2)`)
    expect(text).toContain(`run ${garbled} no answer: no call was answered readably: 2 unparseable of 2`)
    const { runs } = JSON.parse((await runCli('runs', 'list', file, '--json')).stdout) as { runs: Array<{ id: number; status: string; shown: { status: string } }> }
    // The stored status stays what the runner wrote; what is shown is beside it.
    // The report's Sources give each run that same status.
    const report = JSON.parse((await runCli('report', file, '--instrument', 'pairwise-preference', '--json')).stdout) as Report
    expect([failed, garbled, fine].map((id) => report.sources.find((s) => s.id === `run:${id}`)?.detail.run_status)).toEqual(['failed', 'no answer', 'done'])
    expect(runs.map((r) => [r.id, r.status, r.shown.status]).sort((x, y) => (x[0] as number) - (y[0] as number))).toEqual([
      [failed, 'done', 'failed'],
      [garbled, 'done', 'no answer'],
      [fine, 'done', 'done']
    ])
  })
})
