import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectReport } from '../../../src/main/report'
import { insertItems, type NewItem } from '../../../src/main/store/items'
import { Project } from '../../../src/main/store/project'
import { renderReportText, summaryCardsHtml, type Report } from '../../../src/shared/report'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'

// A probability scored against an outcome (the preprint check's P(same study), and its confidence in its own answer)
// is read on the cards, in the human ceiling and judge against judge by the score its field table gives (Brier),
// never as a number compared with people's numbers.
const tmp = tempDir('assay-probability-fields-')
afterAll(() => tmp.cleanup())
const PAIRS = 12
const truth = (i: number) => i % 2 === 0

/** Each source's answer on pair i: its same_study and its confidence in it. */
const SOURCES: Array<{ source: string; kind: 'human' | 'model'; answer: (i: number) => { same_study: boolean; confidence: number } }> = [
  { source: 'H1', kind: 'human', answer: (i) => ({ same_study: i === 3 ? !truth(i) : truth(i), confidence: 0.8 }) },
  { source: 'H2', kind: 'human', answer: (i) => ({ same_study: i === 5 ? !truth(i) : truth(i), confidence: 0.7 }) },
  // Right everywhere, fairly sure: a smaller Brier score than either person's.
  { source: 'good', kind: 'model', answer: (i) => ({ same_study: truth(i), confidence: 0.9 }) },
  // Right on half, always sure: a larger one.
  { source: 'bad', kind: 'model', answer: (i) => ({ same_study: i % 4 < 2, confidence: 0.95 }) }
]

/** A project of the pairs, answered by the given sources, and its report. */
async function preprintReport(name: string, sources: typeof SOURCES): Promise<Report> {
  const path = tmp.file(name)
  const project = await Project.create(path)
  const paper = (id: string) => ({ id, title: `Title ${id}`, abstract: `Abstract ${id}.` })
  const items: NewItem[] = Array.from({ length: PAIRS }, (_, i) => ({
    kind: 'preprint-pair',
    externalId: `pp-${i}`,
    set: 'preprints',
    split: 'none',
    payload: { paper: paper(`paper-${i}`), preprint: paper(`pre-${i}`), same_study: truth(i) }
  }))
  project.write((db) => insertItems(db, items))
  project.close()
  const rows = sources.flatMap(({ source, kind, answer }) =>
    Array.from({ length: PAIRS }, (_, i) => JSON.stringify({ item: `pp-${i}`, instrument: 'preprint-same-study', source, source_kind: kind, judgement: { ...answer(i), reason: 'r' } }))
  )
  const labels = tmp.file(`${name}.jsonl`)
  writeFileSync(labels, `${rows.join('\n')}\n`)
  expect((await runCli('import', path, 'labels', labels)).code).toBe(0)
  const reopened = await Project.open(path)
  try {
    return projectReport(reopened.db, { instrument: 'preprint-same-study', seed: 5 })
  } finally {
    reopened.close()
  }
}

let report: Report
beforeAll(async () => {
  report = await preprintReport('preprints.assay', SOURCES)
})

/** P(same study) as the instrument derives it from the answer, and its squared error against the truth. */
const pSame = (a: { same_study: boolean; confidence: number }) => (a.same_study ? a.confidence : 1 - a.confidence)
const brierOf = (source: string, y: (i: number) => boolean, p: (a: { same_study: boolean; confidence: number }, i: number) => number) => {
  const answer = SOURCES.find((s) => s.source === source)!.answer
  const errors = Array.from({ length: PAIRS }, (_, i) => (p(answer(i), i) - (y(i) ? 1 : 0)) ** 2)
  return errors.reduce((a, b) => a + b, 0) / PAIRS
}

describe('a probability scored against an outcome', () => {
  it('is read on the cards by its Brier score against the human majority, as its field table gives it', () => {
    for (const field of ['p_same_study', 'confidence']) {
      const card = report.summary.find((c) => c.source === 'model:good' && c.field === field)!
      const row = report.fields.find((f) => f.name === field)!.comparisons.find((r) => r.source === 'model:good' && r.criterion === 'human-majority')!
      expect(card.agreement.statistic).toBe('brier')
      expect(card.agreement.value).toBe(row.brier)
      expect(card.agreement.definition).toMatch(/^Brier of the judge against the human majority's outcome/)
    }
  })

  it('has a human ceiling of people\'s own Brier scores, and a judge with a smaller error than every annotator is above it', () => {
    const card = (source: string) => report.summary.find((c) => c.source === source && c.field === 'p_same_study')!
    const good = card('model:good')
    expect(good.human_ceiling?.statistic).toBe('brier')
    // Each annotator against the other (the majority of the others, with two): H1 wrong on pair 3, H2 on pair 5.
    const h1 = brierOf('H1', (i) => (i === 5 ? !truth(i) : truth(i)), pSame)
    const h2 = brierOf('H2', (i) => (i === 3 ? !truth(i) : truth(i)), pSame)
    expect(good.human_ceiling?.min).toBeCloseTo(Math.min(h1, h2), 12)
    expect(good.human_ceiling?.max).toBeCloseTo(Math.max(h1, h2), 12)
    // Over the pair of annotators, each is scored against the other's outcome and the two averaged: neither's place
    // in the list decides it.
    const pairs = report.ceiling.find((c) => c.field === 'p_same_study')!.human_human
    expect(pairs.mean.brier?.value).toBeCloseTo((h1 + h2) / 2, 12)
    // Brier is an error: a judge with a smaller one than every annotator is above their range, one with a larger one
    // than every annotator below it, and each verdict says which way it reads.
    expect(good.agreement.value).toBeLessThan(good.human_ceiling!.min!)
    expect(good.verdicts).toContain('above_human_ceiling')
    expect(good.verdict).toContain('a smaller error than every annotator')
    const bad = card('model:bad')
    expect(bad.agreement.value).toBeGreaterThan(bad.human_ceiling!.max!)
    expect(bad.verdicts).toContain('below_human_ceiling')
    expect(bad.verdict).toContain('a larger error than every annotator')
    // The cards' chips say which way a Brier verdict reads, and give its figures on hover.
    const html = summaryCardsHtml(report)
    const chips = [...html.matchAll(/<span class="tag[^"]*" data-verdict="(above|below)_human_ceiling" title="([^"]*)">([^<]*)<\/span>/g)].map((m) => ({ verdict: m[1], title: m[2], words: m[3] }))
    expect(chips).toContainEqual({ verdict: 'below', title: expect.stringContaining('a larger error than every annotator') as unknown as string, words: 'below the human ceiling: a larger error' })
    expect(chips).toContainEqual({ verdict: 'above', title: expect.stringContaining('a smaller error than every annotator') as unknown as string, words: 'above the human ceiling: a smaller error' })
    expect(good.verdict).not.toMatch(/fewer than two annotators/)
  })

  it('is compared judge against judge by the difference of Brier scores against the criterion\'s outcome', () => {
    const row = report.judge_vs_judge.find((r) => r.field === 'p_same_study' && r.criterion === 'label')!
    expect(row.statistic).toBe('brier')
    expect(row.n).toBe(PAIRS)
    const good = brierOf('good', truth, pSame)
    const bad = brierOf('bad', truth, pSame)
    const [first, second] = row.first === 'model:good' ? [good, bad] : [bad, good]
    expect(row.first_value).toBeCloseTo(first, 12)
    expect(row.second_value).toBeCloseTo(second, 12)
    // A confidence is scored against whether the judge's own answer is right.
    const confidence = report.judge_vs_judge.find((r) => r.field === 'confidence' && r.criterion === 'label' && r.first === row.first)!
    expect(confidence.statistic).toBe('brier')
    const own = (source: string) => SOURCES.find((s) => s.source === source)!.answer
    const confidenceBrier = (source: string) => brierOf(source, (i) => own(source)(i).same_study === truth(i), (a) => a.confidence)
    expect(confidence.first_value).toBeCloseTo(confidenceBrier(row.first.replace('model:', '')), 12)
  })

  it('says in the text what judge against judge scores, and names each row\'s statistic', () => {
    const text = renderReportText(report)
    expect(text).toMatch(/a probability scored against an outcome by its Brier score against that outcome/)
    expect(text).toMatch(/p_same_study +Brier +Reference label /)
  })
})

describe('a human ceiling undefined for some annotators', () => {
  it('says for how many, and why, in the text as on the cards', async () => {
    // Two people who always say "same study": against each other's majority with the third, only agreeing units are
    // left (the rest split), so their κ has an expected agreement of 1.
    const always = (source: string) => ({ source, kind: 'human' as const, answer: () => ({ same_study: true, confidence: 0.9 }) })
    const three = await preprintReport('three.assay', [always('H1'), always('H2'), { source: 'H3', kind: 'human', answer: (i) => ({ same_study: truth(i), confidence: 0.8 }) }, SOURCES[2]!])
    const card = three.summary.find((c) => c.source === 'model:good' && c.field === 'same_study')!
    expect(card.human_ceiling?.n_undefined).toBe(2)
    const text = renderReportText(three)
    expect(text).toContain("Cohen's κ against the majority of the others: over 1 of 3 annotators (undefined for 2)")
    // Why, for each of them: in the notes under the field table whose rows the ceiling cites.
    expect(text).toMatch(/— Cohen's κ: expected agreement is 1 .*\(A\d+ vs Human majority; A\d+ vs Human majority\)/)
  })
})

describe('a card without a human ceiling', () => {
  it('says why: one annotator has no majority of others to be compared with', async () => {
    const single = await preprintReport('one-annotator.assay', SOURCES.filter((s) => s.source !== 'H2'))
    const card = single.summary.find((c) => c.source === 'model:good' && c.field === 'same_study')!
    expect(card.verdicts).toContain('no_human_ceiling')
    expect(card.verdict).toMatch(/no human ceiling \(fewer than two annotators have units to compare with the majority of the others\)/)
    expect(renderReportText(single)).not.toMatch(/fewer than two annotators\)/)
  })
})
