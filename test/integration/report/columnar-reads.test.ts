import { afterAll, describe, expect, it } from 'vitest'
import { gatherReportInput } from '../../../src/main/report'
import { inKeyOrder, itemRowsOfKind, runCallColumns, type CallColumns } from '../../../src/main/store/report-reads'
import type { Db } from '../../../src/main/store/database'
import { tempDir } from '../../support/tmp'
import { demoAfterJudgeRun, syntheticPairsProject } from './fixtures'

// Gathering reads the calls and the items as columns (a JSON array per column, and the long texts as a list): the
// same rows, in the same order, as reading them one row at a time, whatever the size of a chunk.

const tmp = tempDir('assay-columnar-reads-')
afterAll(() => tmp.cleanup())

/** A run's calls read row by row, as columns. */
function callsByRow(db: Db, runId: number): CallColumns {
  const rows = db
    .prepare(`SELECT item_id, trial, order_index, status, display, judgement FROM model_calls WHERE run_id = ? ORDER BY item_id, trial, order_index`)
    .raw(true)
    .all(runId) as Array<[number, number, number, CallColumns['status'][number], string, string | null]>
  return {
    item: rows.map((r) => r[0]),
    trial: rows.map((r) => r[1]),
    order: rows.map((r) => r[2]),
    status: rows.map((r) => r[3]),
    display: rows.map((r) => r[4]),
    judgement: rows.map((r) => r[5])
  }
}

/** The chunks of a read joined into one set of columns. */
function joined(chunks: Iterable<CallColumns>): CallColumns & { chunks: number } {
  const out: CallColumns & { chunks: number } = { item: [], trial: [], order: [], status: [], display: [], judgement: [], chunks: 0 }
  for (const c of chunks) {
    out.chunks++
    for (const key of ['item', 'trial', 'order', 'status', 'display', 'judgement'] as const) (out[key] as unknown[]).push(...c[key])
  }
  return out
}

describe('columnar reads for the report', () => {
  it('reads a run\'s calls as the rows give them, in chunks of any size, without losing a call at a chunk\'s edge', async () => {
    const project = await syntheticPairsProject(tmp.file('pairs.assay'), 40)
    try {
      const expected = callsByRow(project.db, 1)
      expect(expected.item.length).toBe(80)
      // Failed calls carry no judgement: nulls stay in their places.
      expect(expected.judgement.some((j) => j === null)).toBe(true)
      for (const chunk of [1, 3, 7, 79, 80, 81, 65_536]) {
        const { chunks, ...columns } = joined(runCallColumns(project.db, 1, chunk))
        expect(columns, `chunks of ${chunk}`).toEqual(expected)
        expect(chunks).toBe(Math.ceil(80 / chunk))
      }
      expect(joined(runCallColumns(project.db, 999)).chunks).toBe(0)
    } finally {
      project.close()
    }
  })

  it('takes a chunk as read only in key order, each key once, with a judgement per call', () => {
    const chunk = (item: number[], trial: number[], order: number[], judgements = item.length): CallColumns => ({
      item,
      trial,
      order,
      status: item.map(() => 'ok' as const),
      display: item.map(() => '{}'),
      judgement: Array.from({ length: judgements }, () => null)
    })
    expect(inKeyOrder(chunk([1, 1, 1, 2], [0, 0, 1, 0], [0, 1, 0, 0]))).toBe(true)
    expect(inKeyOrder(chunk([], [], []))).toBe(true)
    expect(inKeyOrder(chunk([2, 1], [0, 0], [0, 0]))).toBe(false)
    expect(inKeyOrder(chunk([1, 1], [1, 0], [0, 0]))).toBe(false)
    expect(inKeyOrder(chunk([1, 1], [0, 0], [1, 0]))).toBe(false)
    expect(inKeyOrder(chunk([1, 1], [0, 0], [0, 0]))).toBe(false)
    expect(inKeyOrder(chunk([1, 2], [0, 0], [0, 0], 1))).toBe(false)
  })

  it('reads the items of a kind as the rows give them, with and without a split', async () => {
    const project = await syntheticPairsProject(tmp.file('items.assay'), 30)
    try {
      for (const split of [undefined, 'test', 'dev'] as const) {
        const byRow = project.db
          .prepare(`SELECT id, kind, external_id, set_name, split, payload FROM items WHERE kind = 'proposal-pair' AND (? IS NULL OR split = ?) ORDER BY id`)
          .all(split ?? null, split ?? null)
        expect(itemRowsOfKind(project.db, 'proposal-pair', split)).toEqual(byRow)
      }
      expect(itemRowsOfKind(project.db, 'hypothesis-set', undefined)).toEqual([])
    } finally {
      project.close()
    }
  })

  it('gives each gathered source the calls the rows hold, made as objects only when asked', async () => {
    const project = await demoAfterJudgeRun(tmp.file('demo.assay'))
    try {
      const input = gatherReportInput(project.db, { instrument: 'pairwise-preference' })
      const run = input.sources.find((s) => s.kind === 'judge_run')
      expect(run).toBeDefined()
      const calls = run!.calls
      // Made once: the same objects on every read, and in a copy of the source made by spreading it.
      expect(run!.calls).toBe(calls)
      expect({ ...run! }.calls).toBe(calls)
      const rows = callsByRow(project.db, Number(run!.detail.run_id))
      expect(calls.map((c) => [c.itemId, c.trial, c.order, c.status])).toEqual(rows.item.map((item, i) => [item, rows.trial[i], rows.order[i], rows.status[i] === 'ok' && rows.judgement[i] === null ? 'unparseable' : rows.status[i]]))
      expect(calls.every((c) => c.shownFirst === 'a' || c.shownFirst === 'b')).toBe(true)
      expect(calls.filter((c) => c.status === 'ok').every((c) => c.observations.length > 0)).toBe(true)
    } finally {
      project.close()
    }
  })
})
