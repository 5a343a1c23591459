import { readFileSync, writeFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { insertItems } from '../../../src/main/store/items'
import { Project } from '../../../src/main/store/project'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'

// Probability scoring (Brier, log loss, ECE with its reliability diagram, quantile ECE, AUROC) from answers brought by
// the `labels` import: two experts' and a judge's preprint checks in one JSONL file, imported with `assay import
// labels`, then `assay report`. No item import makes preprint pairs yet, so the pairs themselves are written with the
// store's item API, as an import would write them.
const tmp = tempDir('assay-probability-imported-')
afterAll(() => tmp.cleanup())

const N = 20
/** The experts' answer (both agree) and the judge's probability of "same study", distinct for every pair. */
const truth = (k: number) => k % 3 !== 0
const judgeP = (k: number) => (((k * 7) % N) + 0.5) / N

describe('probability scoring from imported files', () => {
  it('scores the judge’s P(same study) against the experts’ same_study, with a reliability diagram', async () => {
    const path = tmp.file('preprints.assay')
    const project = await Project.create(path)
    project.write((db) =>
      insertItems(
        db,
        Array.from({ length: N }, (_, k) => ({
          kind: 'preprint-pair' as const,
          externalId: `pp${k}`,
          set: 'preprints',
          split: 'none' as const,
          payload: { paper: { title: `Paper ${k}`, abstract: 'A' }, preprint: { title: `Preprint ${k}`, abstract: 'B' } }
        }))
      )
    )
    project.close()

    const rows: string[] = []
    for (let k = 0; k < N; k++) {
      for (const expert of ['Expert A', 'Expert B']) {
        rows.push(JSON.stringify({ item: `pp${k}`, instrument: 'preprint-same-study', source: expert, source_kind: 'human', judgement: { same_study: truth(k), confidence: 0.9, reason: 'DOI' } }))
      }
      const p = judgeP(k)
      rows.push(JSON.stringify({ item: `pp${k}`, instrument: 'preprint-same-study', source: 'judge-m', source_kind: 'model', judgement: { same_study: p >= 0.5, confidence: p >= 0.5 ? p : 1 - p, reason: 'r' } }))
    }
    writeFileSync(tmp.file('labels.jsonl'), `${rows.join('\n')}\n`)
    const imported = await runCli('import', path, 'labels', tmp.file('labels.jsonl'))
    expect(imported.stderr).toBe('')
    expect(imported.code).toBe(0)

    const out = await runCli('report', path, '--instrument', 'preprint-same-study', '--json')
    expect(out.code).toBe(0)
    const report = JSON.parse(out.stdout)
    const row = report.fields
      .find((f: { name: string }) => f.name === 'p_same_study')
      .comparisons.find((c: { source: string; criterion: string }) => c.source === 'model:judge-m' && c.criterion === 'human-majority')
    expect(row.outcome).toBe('same_study of the criterion')
    const y = Array.from({ length: N }, (_, k) => (truth(k) ? 1 : 0))
    const p = Array.from({ length: N }, (_, k) => judgeP(k))
    const mean = (x: readonly number[]) => x.reduce((s, v) => s + v, 0) / x.length
    expect(row.n).toBe(N)
    expect([row.n_positive, row.n_negative]).toEqual([13, 7])
    expect(row.brier).toBeCloseTo(mean(p.map((q, i) => (q - y[i]!) ** 2)), 12)
    expect(row.log_loss).toBeCloseTo(mean(p.map((q, i) => -(y[i] ? Math.log(q) : Math.log(1 - q)))), 12)
    // AUROC: the share of (positive, negative) pairs the judge ranks the right way round (no ties among the p).
    let right = 0
    for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) if (y[i] === 1 && y[j] === 0 && p[i]! > p[j]!) right++
    expect(row.auroc).toBeCloseTo(right / (13 * 7), 12)
    // ECE over ten equal-width bins: two forecasts fall in each.
    let ece = 0
    for (let b = 0; b < 10; b++) {
      const inBin = p.map((q, i) => [q, y[i]!] as const).filter(([q]) => q >= b / 10 && q < (b + 1) / 10)
      ece += (inBin.length / N) * Math.abs(mean(inBin.map(([q]) => q)) - mean(inBin.map(([, o]) => o)))
    }
    expect(row.ece).toBeCloseTo(ece, 12)
    expect(row.reliability).toHaveLength(10)
    expect(row.reliability.every((b: { count: number }) => b.count === 2)).toBe(true)
    expect(row.ece_quantile).toBeGreaterThan(0)
    expect(row.ece_quantile).toBeLessThanOrEqual(1)

    // The self-contained HTML report draws the reliability diagram of that comparison.
    const html = tmp.file('report.html')
    expect((await runCli('report', path, '--instrument', 'preprint-same-study', '--html', html)).code).toBe(0)
    const page = readFileSync(html, 'utf8')
    expect(page).toContain('P(same study): calibration of')
    expect(page).toContain('mean predicted probability')
  })
})
