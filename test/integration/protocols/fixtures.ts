import { join } from 'node:path'
import type { Prompt } from '../../fakes'
import { repoRoot } from '../../support/tmp'

/** The committed input files of the protocols' end-to-end tests, as a user would bring them. */
export const fixture = (name: string): string => join(repoRoot, 'test', 'fixtures', 'protocols', name)

/**
 * A model that answers each quoted request of the hypothesis benchmark by what it is shown: the same study when the
 * preprint's authors match the paper's; a paper suitable when its abstract reports a mechanism; a leak when the
 * background names UCP2; readers that agree when both findings name drug X.
 */
export function benchmarkModel(p: Prompt): string {
  const sys = p.system ?? ''
  if (sys.startsWith('You compare a published research paper with a preprint record')) {
    const authors = [...p.user.matchAll(/^Authors: (.*)$/gm)].map((m) => m[1]!.replace(/;\s*/g, ', '))
    const same = authors.length === 2 && authors[0] === authors[1]
    return JSON.stringify({ same_study: same, confidence: same ? 0.9 : 0.7, reason: same ? 'Same authors and experiments.' : 'A different study.' })
  }
  if (sys.startsWith('You turn the abstract of a published research paper')) {
    if (p.user.includes('Drug X') || p.user.includes('drug X')) {
      return JSON.stringify({ suitable: true, reason: 'A causal finding.', background: 'Senescent cells accumulate with age and drive tissue dysfunction.', question: 'Which compound clears senescent cells in aged mice?', subject: 'senescent cell clearance', finding: 'Drug X clears p16-positive senescent cells and extends healthspan.', key_points: ['drug X', 'p16-positive cells'] })
    }
    if (p.user.includes('UCP2')) {
      return JSON.stringify({ suitable: true, reason: 'A mechanism.', background: 'Neuronal mitochondria change with age; UCP2 is expressed in neurons.', question: 'What delays age-related memory loss?', subject: 'cognitive ageing', finding: 'Neuronal UCP2 overexpression delays memory loss.', key_points: ['UCP2', 'neurons'] })
    }
    return JSON.stringify({ suitable: false, reason: 'A resource paper.', background: '', question: '', subject: '', finding: '', key_points: [] })
  }
  if (sys.startsWith('You audit hypothesis-rediscovery tasks')) {
    const leak = /BACKGROUND: .*UCP2/.test(p.user)
    return JSON.stringify({ leak, evidence: leak ? 'UCP2 is expressed in neurons' : '' })
  }
  if (sys.startsWith('You compare two statements of the main finding')) {
    const same = (p.user.match(/Drug X/g) ?? []).length === 2
    return JSON.stringify({ same_core_finding: same, same_mechanism_or_target: same, same_direction_of_effect: true, b_adds_elements: !same, b_omits_elements: false, differences: same ? '' : 'B adds oxidative damage.' })
  }
  return JSON.stringify({ hypotheses: [{ statement: 'S.', mechanism: 'M.', prediction: 'P.', domain_category: 'd' }], notes: '' })
}
