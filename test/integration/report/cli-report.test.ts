import { existsSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import { Project } from '../../../src/main/store/project'
import { MAX_BOOTSTRAP_RESAMPLES, reportSchema, type Report } from '../../../src/shared/report'
import { operations } from '../../../src/shared/contract/operations'
import { runCli } from '../../support/cli'
import { contextFor } from '../../support/project'
import { tempDir } from '../../support/tmp'
import { demoAfterJudgeRun } from './fixtures'

const tmp = tempDir('assay-report-cli-')
let path: string

beforeAll(async () => {
  path = tmp.file('demo.assay')
  const project = await demoAfterJudgeRun(path)
  project.close()
})
afterAll(() => tmp.cleanup())

describe('assay report', () => {
  it('prints the report JSON, valid against its schema, and writes the HTML report', async () => {
    const html = tmp.file('report.html')
    const result = await runCli('report', path, '--instrument', 'pairwise-preference', '--json', '--html', html, '--seed', '11')
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const report = JSON.parse(result.stdout) as Report
    expect(reportSchema.parse(report)).toEqual(report)
    expect(report.settings.bootstrap.seed).toBe(11)
    expect(report.instrument.id).toBe('pairwise-preference')
    expect(report.sources.map((s) => s.kind)).toEqual(expect.arrayContaining(['item_label', 'adjudicated', 'human_majority', 'judge_run', 'model_import', 'annotator']))
    expect(report.pairwise?.rows.length).toBeGreaterThan(0)
    expect(existsSync(html)).toBe(true)
    const page = readFileSync(html, 'utf8')
    const embedded = /<script type="application\/json" id="assay-report">([\s\S]*?)<\/script>/.exec(page)?.[1] ?? ''
    expect((JSON.parse(embedded) as Report).pairwise?.rows).toEqual(report.pairwise?.rows)
  })

  it('restricts the report to a split', async () => {
    const result = await runCli('report', path, '--instrument', 'pairwise-preference', '--split', 'test', '--json')
    expect(result.code).toBe(0)
    const report = JSON.parse(result.stdout) as Report
    // The demo imports every item with split none.
    expect(report.scope).toMatchObject({ split: 'test', n_items: 0 })
  })

  it('prints a readable summary without --json', async () => {
    const result = await runCli('report', path, '--instrument', 'pairwise-preference')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('Which proposal is better (pairwise-preference, version 1)')
    // The accuracy, its interval and the baselines first, then the counts: in scope 24, judged 24, none failed, unparseable, abstained, pending or tied, 18 correct.
    expect(result.stdout).toMatch(/claude-judge · run 1\s+Reference label\s+75\.0%\s+\[[^\]]+\]\s+[\d.]+% \(always [^)]+\)\s+[\d.]+%\s+24\s+24\s+0\s+0\s+0\s+0\s+0\s+18\s/)
    expect(result.stdout).toContain('warning: gpt-judge · run 2 is below the majority baseline')
  })

  it('asks for an instrument when several have answers, and refuses bad options as usage errors', async () => {
    const ambiguous = await runCli('report', path)
    expect(ambiguous.code).toBe(2)
    expect(ambiguous.stderr).toContain('Choose an instrument with --instrument: pairwise-preference, flaw-audit')
    const split = await runCli('report', path, '--instrument', 'pairwise-preference', '--split', 'train')
    expect(split.code).toBe(2)
    expect(split.stderr).toContain('--split must be one of dev, test, none')
    const resamples = await runCli('report', path, '--instrument', 'pairwise-preference', '--resamples', '500')
    expect(resamples.code).toBe(2)
    expect(resamples.stderr).toContain('--resamples must be an integer from 2000')
    // The command line takes the range the contract takes: the workbench and scripts over HTTP get the same refusal.
    const many = await runCli('report', path, '--instrument', 'pairwise-preference', '--resamples', '1000000')
    expect(many.code).toBe(2)
    expect(many.stderr).toContain(`--resamples must be an integer from 2000 to ${MAX_BOOTSTRAP_RESAMPLES}`)
    const schema = operations['report.build'].input
    expect(schema.safeParse({ instrument: 'pairwise-preference', resamples: MAX_BOOTSTRAP_RESAMPLES }).success).toBe(true)
    expect(schema.safeParse({ instrument: 'pairwise-preference', resamples: MAX_BOOTSTRAP_RESAMPLES + 1 }).success).toBe(false)
    const unknown = await runCli('report', path, '--instrument', 'no-such-thing')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('Unknown instrument "no-such-thing"')
  })
})

describe('the audit operations of the contract', () => {
  it('list the instruments with data and return the same report as the CLI, to curators only', async () => {
    const project = await Project.open(path)
    try {
      const ctx = contextFor(project)
      const listed = await dispatch(ctx, 'report.instruments', {})
      expect(listed.ok).toBe(true)
      const instruments = (listed as { value: { instruments: { id: string; n_calls: number }[] } }).value.instruments
      expect(instruments.map((i) => i.id)).toEqual(['pairwise-preference', 'flaw-audit'])
      expect(instruments[0]?.n_calls).toBe(48)

      const envelope = await dispatch(ctx, 'report.build', { instrument: 'pairwise-preference', seed: 11 })
      expect(envelope.ok).toBe(true)
      const report = (envelope as { value: Report }).value
      const cli = JSON.parse((await runCli('report', path, '--instrument', 'pairwise-preference', '--json', '--seed', '11')).stdout) as Report
      expect({ ...report, generated_at: '' }).toEqual({ ...cli, generated_at: '' })

      const bad = await dispatch(ctx, 'report.build', { instrument: 'pairwise-preference', resamples: 100 })
      expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
      const annotator = contextFor(project, { role: 'annotator', annotator: { id: 1, name: 'Ada' }, locked: false })
      expect(await dispatch(annotator, 'report.build', { instrument: 'pairwise-preference' })).toMatchObject({ ok: false, error: { code: 'forbidden' } })
    } finally {
      project.close()
    }
  })
})
