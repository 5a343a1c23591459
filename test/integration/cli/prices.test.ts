import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeProviders, type FakeProviders } from '../../fakes'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { ideaProject, KEYS } from '../runner/helpers'

// The price table from the command line, and what a run of a model without a price says it cost.

const tmp = tempDir()
let fake: FakeProviders
const saved = { ...process.env }

beforeAll(async () => {
  fake = await startFakeProviders({ responder: () => 'Fine.\n```json\n{"originality": 5, "feasibility": 5, "clarity": 5}\n```' })
  process.env.ASSAY_KEY_LOCAL = KEYS['openai-compatible']
})
afterAll(async () => {
  process.env = { ...saved }
  await fake.close()
  tmp.cleanup()
})

describe('assay prices', () => {
  it('shows the defaults, sets a row, and a run of an unpriced model says its price is unknown', async () => {
    const path = tmp.file('prices.assay')
    ;(await ideaProject(path, 2)).close()
    const shown = await runCli('prices', path)
    expect(shown.code, shown.stderr).toBe(0)
    expect(shown.stdout).toContain('openai  gpt-4.1-mini  in $0.4  out $1.6  batch −50%')

    const judge = (model: string) =>
      runCli('judge', path, '--instrument', 'idea-review', '--provider', 'openai-compatible', '--model', model, '--base-url', fake.url('openai-compatible'), '--key-name', 'LOCAL')
    const unpriced = await judge('my-local-model')
    expect(unpriced.code, unpriced.stderr).toBe(0)
    expect(unpriced.stdout).toMatch(/Run 1 finished: 2 ok, .*; cost price unknown$/m)
    expect(unpriced.stdout).not.toContain('$0.0000')

    const bad = await runCli('prices', path, '--provider', 'openai-compatible', '--model', 'my-local-model', '--input', '-1', '--output', '2')
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain('--input must be a number of dollars per million tokens')
    const half = await runCli('prices', path, '--provider', 'openai-compatible', '--model', 'other-model', '--input', '1')
    expect(half.stderr).toContain('openai-compatible other-model has no price yet: give both --input and --output')
    const set = await runCli('prices', path, '--provider', 'openai-compatible', '--model', 'my-local-model', '--input', '2', '--output', '8', '--json')
    expect(set.code, set.stderr).toBe(0)
    expect(JSON.parse(set.stdout).prices).toContainEqual({ provider: 'openai-compatible', model: 'my-local-model', inputPerMtok: 2, outputPerMtok: 8, batchDiscount: 0.5 })
    const dry = await runCli('judge', path, '--instrument', 'idea-review', '--provider', 'openai-compatible', '--model', 'my-local-model', '--base-url', fake.url('openai-compatible'), '--key-name', 'LOCAL', '--judge-name', 'priced', '--dry-run')
    expect(dry.stdout).toContain("at $2/$8 per million tokens (my-local-model, project's price table)")
  })
})
