import { describe, expect, it } from 'vitest'
import { parseJsonObject } from '../../../src/shared/parse'
import { PAIR_VERDICTS } from '../../../src/shared/protocol'
import { renderRequest } from '../../../src/shared/templates'
import { builtIn } from './support/load-templates'

// The ranker is Assay's own prompt; these tests pin what it must ask for.

const plain = builtIn('pairwise-ranker')
const withReview = builtIn('pairwise-ranker-lr')

describe('pairwise proposal ranker', () => {
  it('shares one system instruction between the two variants', () => {
    expect(withReview.parts.system).toBe(plain.parts.system)
    expect(plain.parts.system).toContain('Answer with JSON only.')
  })

  it('places the proposals, and the review only in the review variant', () => {
    const a = renderRequest(plain, { proposal_a: 'PROPOSAL-ONE', proposal_b: 'PROPOSAL-TWO' })
    expect(a.user).toContain('=== PROPOSAL A ===\nPROPOSAL-ONE\n=== END OF PROPOSAL A ===')
    expect(a.user).toContain('=== PROPOSAL B ===\nPROPOSAL-TWO\n=== END OF PROPOSAL B ===')
    expect(a.user).toContain('No literature review is supplied.')
    const b = renderRequest(withReview, { literature_review: 'REVIEW', proposal_a: 'P1', proposal_b: 'P2' })
    expect(b.user).toContain('=== LITERATURE REVIEW ===\nREVIEW\n=== END OF LITERATURE REVIEW ===')
    expect(b.user.indexOf('REVIEW')).toBeLessThan(b.user.indexOf('=== PROPOSAL A ==='))
    expect(b.user).not.toContain('No literature review is supplied.')
  })

  it('checks the strongest claim against the method, with a worked example, before weighing the factors', () => {
    const user = plain.parts.user ?? ''
    const check = user.indexOf('STEP 1')
    const weigh = user.indexOf('STEP 2')
    expect(check).toBeGreaterThan(0)
    expect(weigh).toBeGreaterThan(check)
    expect(user).toContain("Name the proposal's strongest claim")
    expect(user).toContain('small worked example')
    for (const factor of [
      'need:',
      'increment over prior work:',
      'chance that the method works',
      'value of a negative result:',
      'adoptability:',
      'credibility of the experiments:',
      'cost and risk:'
    ]) {
      expect(user.indexOf(factor), factor).toBeGreaterThan(weigh)
    }
    expect(user).toContain('A fatal flaw cannot be outweighed by ambition, framing, length, polish')
    expect(user).toContain('Ties are not allowed')
  })

  it('asks for the JSON answer the pairwise instrument reads, verdicts spelled exactly', () => {
    const user = plain.parts.user ?? ''
    const line = user.split('\n').find((l) => l.startsWith('Return JSON ')) ?? ''
    expect(line).toBe(
      'Return JSON {"analysis":"your checks, worked examples and comparison, concisely","verdict":"A_much_better"|"A_better"|"B_better"|"B_much_better","fatal_flaws":[{"proposal":"A"|"B","description":"the flaw and the evidence for it"}]}'
    )
    for (const v of PAIR_VERDICTS) expect(line).toContain(`"${v}"`)
    // An answer in that shape parses.
    const answer = parseJsonObject(
      '{"analysis":"x","verdict":"B_better","fatal_flaws":[{"proposal":"A","description":"(5,2) gives 2.8, (6,1) gives 2.5"}]}'
    )
    expect(answer.ok && answer.value.verdict).toBe('B_better')
  })
})
