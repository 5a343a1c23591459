import { describe, expect, it } from 'vitest'
import { judgeFlawAuditRows } from '../../../src/shared/report/fatal-flaw-audits'
import type { JudgeFlawAuditInput, ReportItem } from '../../../src/shared/report'

const pair = (id: number): ReportItem => ({
  id,
  externalId: `p${id}`,
  set: 's',
  split: 'none',
  exposures: [],
  pair: { unit: `p${id}`, label: 'b_better', labelSource: 'expert', a: { origin: 'human', system: 'human' }, b: { origin: 'ai', system: 'x' }, cohort: null, probe: null }
})

const audit = (itemId: number, status: JudgeFlawAuditInput['status'], aFatal?: boolean): JudgeFlawAuditInput => ({
  sourceId: 'run:9',
  name: 'judge · run 9',
  itemId,
  status,
  observations: aFatal === undefined ? [] : [{ unit: `p${itemId}:a`, values: { has_fatal: aFatal } }, { unit: `p${itemId}:b`, values: { has_fatal: false } }]
})

describe("judges' own flaw audits against the proposals people marked fatal", () => {
  it('judges an unreadable audit as naming nothing, and counts a pair never answered apart', () => {
    const items = new Map([1, 2, 3, 4, 5].map((id) => [id, pair(id)]))
    // People marked proposal a fatal on every pair.
    const marked = new Map([1, 2, 3, 4, 5].map((id) => [id, new Set(['a' as const])]))
    const [row] = judgeFlawAuditRows(
      [
        audit(1, 'ok', true),
        audit(2, 'ok', false),
        audit(3, 'unparseable'),
        audit(4, 'failed'),
        // Failed first, then answered (another trial): the answer counts.
        audit(5, 'failed'),
        audit(5, 'ok', true)
      ],
      marked,
      items,
      0.95
    )
    expect(row).toMatchObject({ n_fatal: 4, n_named: 2, n_unparseable: 1, n_unanswered: 1, n_audited: 4, recall: 0.5 })
  })
})
