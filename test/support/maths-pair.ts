import type { NewItem } from '../../src/main/store/items'

const WIDE = Array.from({ length: 60 }, (_, i) => `x_{${i + 1}}`).join(' + ')

function proposal(title: string, intro: string, approach: string): string {
  const rest = ['Related Work', 'Experiments', 'Success Criteria', 'Impact Statement', 'References']
  return [`# ${title}`, '', '## Introduction', '', intro, '', '## Proposed Approach', '', approach, '', ...rest.flatMap((s) => [`## ${s}`, '', `${s}: none.`, ''])].join('\n')
}

const INTRO =
  'We bound the loss by $\\max_{z\\in S} f(z)$, where $n_h$ counts heads, the rate is $\\frac{a}{b}$ and ' +
  'the gradient is $\\hat{g}(z)\\in\\mathbb{R}^d$.'
const APPROACH = [
  'The total is',
  '',
  '$$',
  '\\sum_{i=1}^n w_i = \\max_{z\\in S} f(z)',
  '$$',
  '',
  'The energy bound E is $E = mc^3$ for every head.',
  '',
  `$$ ${WIDE} $$`
].join('\n')

/** A pair of proposals whose Introduction and Proposed Approach hold inline, display and over-wide maths. */
export const MATHS_PAIR: NewItem = {
  kind: 'proposal-pair',
  externalId: 'maths-pair',
  set: 'maths',
  split: 'none',
  payload: {
    pair_id: 'maths-pair',
    topic: 'Maths rendering',
    a: { markdown: proposal('Left title', INTRO, APPROACH), origin: 'human' },
    b: { markdown: proposal('Right title', INTRO, APPROACH), origin: 'ai' }
  }
}
