import { describe, expect, it } from 'vitest'
import type { ReportItem, SourceCall } from '../../../src/shared/report'
import { PAIR_STATUSES, SIDE_OF_CODE, pairCallsOf, type PairCalls } from '../../../src/shared/report/pairwise'
import { resolveSource } from '../../../src/shared/report/resolve'

// A source's pairwise calls: one per item and display order, trials voted, whether an item's calls come in one run
// (as gathering reads them) or spread among other items' (a source made by hand).

const side = { origin: null, system: null }
const items = new Map<number, ReportItem>(
  [1, 2, 3].map((id) => [id, { id, externalId: `p${id}`, set: 's', split: 'none', exposures: [], pair: { unit: `p${id}`, label: null, labelSource: null, a: side, b: side, cohort: null, probe: null } }])
)

function call(itemId: number, order: number, trial: number, winner: 'a' | 'b' | null, status: SourceCall['status'] = 'ok', shownFirst?: 'a' | 'b'): SourceCall {
  const observations = status === 'ok' && winner ? [{ unit: `p${itemId}`, values: { winner } }] : []
  return { itemId, trial, order, status, observations, ...(shownFirst ? { shownFirst } : {}) }
}

function listed(calls: PairCalls): Array<[number, number, string, string | null, string | null]> {
  return Array.from({ length: calls.length }, (_, c) => [
    calls.item[c] as number,
    calls.order[c] as number,
    PAIR_STATUSES[calls.status[c] as number] as string,
    SIDE_OF_CODE[calls.winner[c] as number] ?? null,
    SIDE_OF_CODE[calls.shownFirst[c] as number] ?? null
  ])
}

const fields = [{ name: 'winner', label: 'Winner', level: 'nominal' as const, categories: ['a', 'b'] }]

describe('pairwise calls of a source', () => {
  const inRuns = [
    call(1, 0, 0, 'a', 'ok', 'a'),
    call(1, 1, 0, 'b', 'ok', 'b'),
    call(1, 0, 1, 'a'),
    call(1, 1, 1, 'a'),
    call(2, 0, 0, null, 'failed', 'b'),
    call(2, 0, 1, null, 'unparseable'),
    call(3, 1, 0, 'b')
  ]
  const expected = [
    [1, 0, 'choice', 'a', 'a'],
    [1, 1, 'tie', null, 'b'],
    [2, 0, 'unparseable', null, 'b'],
    [3, 1, 'choice', 'b', null]
  ]

  it('votes the trials of each item and display order, an even split a tie, no answer its first status', () => {
    const source = resolveSource({ id: 'run:1', kind: 'judge_run', name: 'j', detail: {}, calls: inRuns }, fields, new Set([1, 2, 3]))
    expect(listed(pairCallsOf(source, items))).toEqual(expected)
  })

  it('gives the same groups, in order of their first call, where an item\'s calls are spread among others', () => {
    const spread = [inRuns[0], inRuns[4], inRuns[1], inRuns[6], inRuns[2], inRuns[5], inRuns[3]] as SourceCall[]
    const source = resolveSource({ id: 'run:2', kind: 'judge_run', name: 'j', detail: {}, calls: spread }, fields, new Set([1, 2, 3]))
    expect(listed(pairCallsOf(source, items))).toEqual([expected[0], expected[2], expected[1], expected[3]])
  })
})
