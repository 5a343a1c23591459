import { describe, expect, it } from 'vitest'
import { CallRows, OK, STATUS_CODE, callCountOf, callRowsOf, sourceOfRows, type SourceCall } from '../../../src/shared/report'
import { ReportFrame } from '../../../src/shared/report/frame'
import { gatheredRowsOf } from '../../../src/shared/report/call-rows'
import { JudgementReader, readAnswer } from '../../../src/main/report/stored-calls'
import { getInstrument } from '../../../src/shared/instruments'

const calls: SourceCall[] = [
  { itemId: 4, trial: 0, order: 0, shownFirst: 'a', status: 'ok', observations: [{ unit: 'p4', values: { winner: 'a' } }] },
  { itemId: 4, trial: 0, order: 1, shownFirst: 'b', status: 'failed', observations: [] },
  { itemId: 9, trial: 1, order: 0, status: 'ok', observations: [{ unit: 'p9', values: { winner: 'b' } }, { unit: 'p9:a', values: { has_fatal: true } }] },
  {
    itemId: 9,
    trial: 2,
    order: 0,
    status: 'ok',
    observations: [{ unit: 'p9', values: { winner: null } }],
    flaws: [{ side: 'a', type: 'leak', severity: 'fatal', evidence: 'x' }],
    unparseableFlaws: 1
  }
]

/** Rows written call by call, as gathering writes them. */
function written(): CallRows {
  const rows = new CallRows()
  for (const c of calls) {
    const flaws = c.flaws ? { flaws: c.flaws, unparseableFlaws: c.unparseableFlaws ?? 0 } : null
    rows.add(c.itemId, c.trial, c.order, c.shownFirst === 'a' ? 1 : c.shownFirst === 'b' ? 2 : 0, STATUS_CODE.get(c.status) as number, c.observations, flaws)
  }
  return rows
}

describe('a source\'s calls as rows', () => {
  it('makes from its rows the calls that were written, once, with the display order only where recorded', () => {
    const rows = written()
    expect(rows.madeCalls).toBeUndefined()
    expect(rows.calls).toEqual(calls)
    expect(rows.calls).toBe(rows.calls)
    expect('shownFirst' in (rows.calls[2] as SourceCall)).toBe(false)
    const columns = rows.columns()
    expect([...columns.item]).toEqual([4, 4, 9, 9])
    expect([...columns.trial]).toEqual([0, 0, 1, 2])
    expect([...columns.observationStart]).toEqual([0, 1, 1, 3, 4])
    expect([...columns.status]).toEqual([OK, STATUS_CODE.get('failed'), OK, OK])
    expect(rows.unitNames).toEqual(['p4', 'p9', 'p9:a', 'p9'])
  })

  it('keeps the very calls of a source made by hand', () => {
    const rows = CallRows.of(calls)
    expect(rows.calls).toBe(calls)
    expect(rows.callAt(3)).toBe(calls[3])
    expect(written().callAt(3)).toEqual(calls[3])
  })

  it('takes no call once its columns are read', () => {
    const rows = written()
    rows.columns()
    expect(() => rows.add(1, 0, 0, 0, OK, [])).toThrow(/already read/)
  })

  it('gives a gathered source its calls on the first read, and the frame its columns without them', () => {
    const rows = written()
    const source = sourceOfRows({ id: 'run:1', kind: 'judge_run', name: 'j', detail: {} }, rows)
    const frame = new ReportFrame()
    const columns = frame.columnsOf(source)
    expect(columns.rows).toBe(rows)
    expect(callCountOf(source)).toBe(4)
    expect(callRowsOf(source)).toBe(rows)
    // Nothing above made the call objects.
    expect(rows.madeCalls).toBeUndefined()
    expect(columns.field('winner').values).toEqual(['a', 'b'])
    expect(rows.madeCalls).toBeUndefined()
    // A copy made by spreading reads the calls, and finds the same columns.
    const copy = { ...source }
    expect(copy.calls).toEqual(calls)
    expect(frame.columnsOf(copy)).toBe(columns)
    expect(Object.keys(source)).toEqual(['id', 'kind', 'name', 'detail', 'calls'])
    // A copy with other calls holds no rows of the source's: its own calls are counted.
    const other = { ...source, calls: calls.slice(0, 1) }
    expect(gatheredRowsOf(other)).toBeUndefined()
    expect(callCountOf(other)).toBe(1)
    expect(callRowsOf(other)).not.toBe(rows)
  })
})

describe('reading a stored answer', () => {
  const instrument = getInstrument('pairwise-preference')
  const payload = { pair_id: 'p1', a: { markdown: 'A', origin: 'human' }, b: { markdown: 'B', origin: 'ai' } }

  it('observes the same answer on the same item once, and again on another item', () => {
    const reader = new JudgementReader(instrument)
    const first = readAnswer(instrument, payload, '{"verdict":"a_better"}', 'ok', reader)
    const second = readAnswer(instrument, payload, '{"verdict":"a_better"}', 'ok', reader)
    expect(second.observations).toBe(first.observations)
    const other = readAnswer(instrument, { ...payload, pair_id: 'p2' }, '{"verdict":"a_better"}', 'ok', reader)
    expect(other.observations).not.toBe(first.observations)
    expect(other.observations[0]?.unit).toBe('p2')
    expect(readAnswer(instrument, payload, '{"verdict":"b_better"}', 'ok', reader).observations[0]?.values.winner).toBe('b')
  })

  it('marks what it cannot use', () => {
    const reader = new JudgementReader(instrument)
    expect(readAnswer(instrument, payload, null, 'ok', reader)).toMatchObject({ status: 'unparseable', invalid: false })
    expect(readAnswer(instrument, payload, '{"verdict":"nonsense"}', 'ok', reader)).toMatchObject({ status: 'unparseable', invalid: true })
    expect(readAnswer(instrument, payload, '{"verdict":"abstain","abstain_reason":"no"}', 'ok', reader)).toMatchObject({ status: 'abstained' })
    expect(readAnswer(instrument, payload, '{"verdict":"a_better"}', 'failed', reader)).toMatchObject({ status: 'failed', observations: [] })
  })
})
