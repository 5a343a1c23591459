import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { vectorsUrl } from './vectors'

// The source documents sit beside the repository only in the project's own checkouts, never in a bare clone.
const sharedVectorsUrl = new URL('../../../../shared/docs/stats-vectors.json', import.meta.url)

const present = existsSync(fileURLToPath(sharedVectorsUrl))

describe('reference values of the statistics', () => {
  it.skipIf(!present)(`are a byte-for-byte copy of shared/docs/stats-vectors.json${present ? '' : ' (skipped: source documents not present)'}`, () => {
    expect(readFileSync(vectorsUrl).equals(readFileSync(sharedVectorsUrl))).toBe(true)
  })
})
