import { afterAll, describe, expect, it } from 'vitest'
import { startFakeProviders } from '../../fakes'
import { addJudge, demoProject, protocolResponder, runToEnd } from '../runner/helpers'
import { call, contextFor } from '../../support/project'
import { tempDir } from '../../support/tmp'

// The contract's items.split (the GUI's split) returns the plan `assay split` makes, warnings included: items a
// judge has already answered are named, so the curator knows their test items were seen before the split.

const tmp = tempDir('assay-split-contract-')
afterAll(() => tmp.cleanup())

describe('items.split through the contract', () => {
  it('returns the whole plan: strata, counts, fits no longer held out and the warning about judged items', async () => {
    const project = await demoProject(tmp.file('p.assay'))
    const fake = await startFakeProviders({ responder: protocolResponder })
    try {
      const judge = addJudge(project, fake, 'openai')
      expect((await runToEnd(project, { instrument: 'pairwise-preference', judgeId: judge.id, concurrency: 2 })).outcome).toBe('done')
      const plan = await call(contextFor(project), 'items.split', { testFraction: 0.5, kind: 'proposal-pair' })
      expect(plan).toMatchObject({ seed: project.seed, testFraction: 0.5, dev: 6, test: 6, fitsNoLongerHeldOut: [] })
      expect(plan.strata).toHaveLength(4)
      expect(plan.warnings).toEqual([expect.stringMatching(/^12 of these items already have judge answers/)])
      // Now in use: a second split of the same items is refused, in words.
      await expect(call(contextFor(project), 'items.split', { testFraction: 0.5, kind: 'proposal-pair' })).rejects.toMatchObject({ code: 'conflict', message: expect.stringMatching(/The split is frozen/) })
    } finally {
      await fake.close()
      project.close()
    }
  })
})
