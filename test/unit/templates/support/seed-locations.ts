import { locate, type SeedLocation } from './seeds'

// Where each template part stands in the source documents. Every location is independent of the template files,
// so a template that drifts from its source fails the fidelity tests.

const SYSTEM = 'System instruction\n\n'
const USER = 'User message\n\n'
const END_SYSTEM = '\n\nUser message\n\n'

function request(heading: string, nextHeading: string): { system: SeedLocation; user: SeedLocation } {
  return {
    system: { seed: '001', after: [heading, SYSTEM], to: END_SYSTEM },
    user: { seed: '001', after: [heading, USER], to: `\n\n${nextHeading}` }
  }
}

function userOnly(heading: string, nextHeading: string): { user: SeedLocation } {
  return { user: { seed: '001', after: [heading, USER], to: `\n\n${nextHeading}` } }
}

const generatorSystem = request('Single request§', 'Multi-stage chain§').system
const ideaSystem = request('Single request for two ideas§', 'Choosing two ideas from the candidates§').system

function chainStage(n: number): SeedLocation {
  return { seed: '001', after: ['Multi-stage chain§', 'Stage texts\n\n'], startAt: `STAGE ${n} OF 5`, to: '\n\n' }
}

function omegaStage(n: number): SeedLocation {
  return { seed: '001', after: ['Omega Point scheme§', 'Stage texts\n\n'], startAt: `STAGE ${n} OF 5`, to: '\n\n' }
}

function lens(startAt: string): SeedLocation {
  return { seed: '001', after: ['Epistemic lenses of stage 3\n\n'], startAt, to: '\n\n' }
}

const stageUser: SeedLocation = {
  seed: '001',
  after: ['Multi-stage chain§', 'Structure of the user message\n\n'],
  to: '\n\nStage texts'
}

const omegaStage4System: SeedLocation = {
  seed: '001',
  after: ['Omega Point scheme§', 'System instruction at stage 4\n\n'],
  to: '\n\nFourth role in every fifth task'
}

/** Parts located verbatim in a seed, by `id@version`. */
export const VERBATIM: Record<string, Record<string, SeedLocation>> = {
  'preprint-check@1': request('Comparing a paper with a preprint record§', 'Composing a task from an abstract§'),
  'task-composition@1': request('Composing a task from an abstract§', 'Checking a task for answer leakage§'),
  'leak-audit@1': request('Checking a task for answer leakage§', 'Comparing two versions of a reference§'),
  'reference-comparison@1': request('Comparing two versions of a reference§', 'Generating hypotheses§'),
  'hypothesis-single@1': request('Single request§', 'Multi-stage chain§'),
  'hypothesis-stage@1': { system: generatorSystem, user: stageUser },
  'hypothesis-further@1': {
    system: generatorSystem,
    user: { seed: '001', after: ['Further request after stage 5\n\n'], to: '\n\nOmega Point scheme§' }
  },
  'hypothesis-selection@1': {
    system: generatorSystem,
    ...userOnly('Choosing five hypotheses from the candidates§', 'Scoring the match with the reference§')
  },
  'omega-stage-4@1': { system: omegaStage4System, user: stageUser },
  'match-judge@1': request('Judge request§', 'Forecasting confirmation§'),
  'forecast-detailed@1': request('Detailed instruction§', 'Short question for five hypotheses§'),
  'forecast-short-set@1': request('Short question for five hypotheses§', 'Short question for one claim§'),
  'forecast-short-claim@1': request(
    'Short question for one claim§',
    'Originality of ideas in the LiveIdeaBench adaptation§'
  ),
  'idea-generation@1': request('Single request for two ideas§', 'Choosing two ideas from the candidates§'),
  'idea-selection@1': {
    system: ideaSystem,
    ...userOnly('Choosing two ideas from the candidates§', 'Reviewer request§')
  },
  'idea-review@1': request('Reviewer request§', 'Similarity of two ideas§'),
  'idea-similarity@1': userOnly('Similarity of two ideas§', 'Rating the cue in the research question§'),
  'cue-rating@1': request('Cue rating request§', 'Additional text for the Grok models§'),
  'chain-stages@1': {
    'stage-1': chainStage(1),
    'stage-2': chainStage(2),
    'stage-3': chainStage(3),
    'stage-4': chainStage(4),
    'stage-5': chainStage(5)
  },
  'omega-stages@1': {
    'stage-1': omegaStage(1),
    'stage-2': omegaStage(2),
    'stage-3': omegaStage(3),
    'stage-4': omegaStage(4),
    'stage-5': omegaStage(5)
  },
  'stage-format-text@1': {
    text: { seed: '001', after: ['Answer format at stages 1 to 3\n\n'], to: '\n\n' }
  },
  'stage-format-4@1': {
    text: { seed: '001', after: ['Answer format at stage 4\n\n'], to: '\n\n' }
  },
  'stage-format-5@1': {
    text: { seed: '001', after: ['Answer format at stage 5\n\n'], to: '\n\n' }
  },
  'omega-lenses@1': {
    'distributed-consensus-architecture': lens('Distributed Consensus Architecture.'),
    'information-theory-error-correction': lens('Information Theory & Error Correction.'),
    'complex-adaptive-systems': lens('Complex Adaptive Systems.'),
    'reliability-engineering': lens('Reliability Engineering.'),
    'cybernetic-control-systems': lens('Cybernetic Control Systems.')
  },
  'fs-olympiad-grade@1': {
    user: {
      seed: '002',
      after: ['FrontierScience‑Olympiad 判分提示', '英文原文\n\n'],
      startAt: 'You are grading an attempted answer',
      to: '\n\nFrontierScience'
    }
  },
  'fs-research-grade@1': {
    user: {
      seed: '002',
      after: ['FrontierScience‑Research 判分提示', '英文原文\n\n'],
      startAt: 'You are grading a science exam.',
      to: '\n\n注：'
    }
  }
}

/** The block that grants the fourth role, and the paragraph it replaces (001, "Fourth role in every fifth task"). */
export function fourthRoleBlock(): { roleLine: string; grantedParagraph: string } {
  const block = locate({
    seed: '001',
    after: ['Omega Point scheme§', 'Fourth role in every fifth task\n\n'],
    to: '\n\nChoosing five hypotheses from the candidates§'
  })
  const [roleLine, grantedParagraph, ...rest] = block.split('\n\n')
  if (roleLine === undefined || grantedParagraph === undefined || rest.length > 0) {
    throw new Error('the fourth-role block no longer has two paragraphs')
  }
  return { roleLine, grantedParagraph }
}

/**
 * The stage-4 system instruction of a task granted the fourth role, built by the rule the source states: the role
 * stands between the cross-domain transfer and the scouts, and the paragraph after the roles is replaced.
 */
export function grantedOmegaStage4System(): string {
  const plain = locate(omegaStage4System)
  const { roleLine, grantedParagraph } = fourthRoleBlock()
  const scouts = '\n  - AT LEAST TWO SCOUTS'
  const notGranted = locate({
    seed: '001',
    after: ['System instruction at stage 4\n\n'],
    startAt: 'This gap was NOT granted',
    to: '\n\n'
  })
  if (plain.split(scouts).length !== 2 || plain.split(notGranted).length !== 2) {
    throw new Error('the stage-4 system instruction no longer has one scouts line and one not-granted paragraph')
  }
  return plain.replace(scouts, `\n${roleLine}${scouts}`).replace(notGranted, grantedParagraph)
}

/** The Grok text (001, "Text at the end of the request"): first paragraph always, second only for JSON answers. */
export function grokSuffixFromSeed(): { instruction: string; jsonOnly: string } {
  const text = locate({ seed: '001', after: ['Text at the end of the request§', '\nText\n\n'], to: null })
  const [instruction, jsonOnly, ...rest] = text.split('\n\n')
  if (instruction === undefined || jsonOnly === undefined || rest.length > 0) {
    throw new Error('the Grok text no longer has two paragraphs')
  }
  return { instruction, jsonOnly }
}
