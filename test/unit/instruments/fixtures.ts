import type { ItemPayload } from '../../../src/shared/items/kinds'

// Items used by the instrument tests. Every field a judge must not see holds a unique marker string (or number),
// so a blinding test can search the serialised view for all of them at once.

export const HIDDEN_MARKERS = {
  title: 'HIDDEN_TITLE_7f3a',
  h1: 'HIDDEN_H1_TITLE_91c2',
  generator: 'HIDDEN_GENERATOR_2b8e',
  company: 'HIDDEN_COMPANY_5d1f',
  citations: 9876543,
  labelSource: 'HIDDEN_LABEL_SOURCE_c04d',
  probe: 'HIDDEN_PROBE_e6a9',
  cohort: 'HIDDEN_COHORT_18b7',
  cutoff: 'HIDDEN_CUTOFF_2031-12-31',
  pairId: 'HIDDEN_PAIR_ID_glm5_claude_code__2509.09754',
  extra: 'HIDDEN_EXTRA_FIELD_a1b2',
  scheme: 'omega-point',
  domainCategory: 'HIDDEN_DOMAIN_CATEGORY_3c3c',
  hypothesisId: 'HIDDEN_HYP_ID_',
  setId: 'HIDDEN_SET_ID_77aa',
  taskId: 'HIDDEN_TASK_ID_66bb',
  finding: 'HIDDEN_FINDING_0d0d',
  keyPoint: 'HIDDEN_KEY_POINT_9e9e',
  subject: 'HIDDEN_SUBJECT_4f4f',
  referenceB: 'HIDDEN_REFERENCE_B_5a5a',
  responder: 'HIDDEN_RESPONDER_6b6b',
  taskGroup: 'HIDDEN_TASK_GROUP_7c7c',
  ideaModel: 'HIDDEN_IDEA_MODEL_8d8d',
  criticModel: 'HIDDEN_CRITIC_MODEL_9e9e',
  priorScore: 'HIDDEN_PRIOR_SCORE_0f0f',
  abstract: 'HIDDEN_ABSTRACT_1a1a'
} as const

export const MARKDOWN_A = `# ${HIDDEN_MARKERS.h1} A

## Introduction
Sensitivity-aware budgets for KV caches.

## Proposed Approach
We allocate n = n_min + share * (B - LH n_min) tokens per head, which is optimal for the
linear objective.

## Experiments
Results: TBD.`

export const MARKDOWN_B = `# ${HIDDEN_MARKERS.h1} B

## Introduction
Layer-wise eviction with dynamic budgets.

## Proposed Approach
Each layer receives a budget proportional to its measured attention entropy.

## Experiments
Results: TBD.`

export const proposalPair: ItemPayload<'proposal-pair'> = {
  pair_id: HIDDEN_MARKERS.pairId,
  topic: 'KV cache compression',
  cohort: HIDDEN_MARKERS.cohort,
  cutoff_date: HIDDEN_MARKERS.cutoff,
  a: {
    markdown: MARKDOWN_A,
    title: HIDDEN_MARKERS.title,
    origin: 'ai',
    generator: HIDDEN_MARKERS.generator,
    company: HIDDEN_MARKERS.company,
    citations: HIDDEN_MARKERS.citations
  },
  b: {
    markdown: MARKDOWN_B,
    title: `${HIDDEN_MARKERS.title} B`,
    origin: 'human',
    generator: `${HIDDEN_MARKERS.generator} B`,
    company: `${HIDDEN_MARKERS.company} B`,
    citations: HIDDEN_MARKERS.citations + 1,
    extra_b: HIDDEN_MARKERS.extra
  },
  label: 'b_much_better',
  label_source: HIDDEN_MARKERS.labelSource,
  probe: HIDDEN_MARKERS.probe,
  secret_extra: HIDDEN_MARKERS.extra
}

export const BACKGROUND =
  'Muscle stem cells lose regenerative capacity with age. Systemic factors in young blood restore some function. ' +
  'Which circulating signals act on aged stem cells remains unknown.'
export const QUESTION = 'Which circulating factor restores the regenerative capacity of aged muscle stem cells?'

export const rediscoveryTask: ItemPayload<'rediscovery-task'> = {
  task_id: HIDDEN_MARKERS.taskId,
  background: BACKGROUND,
  question: QUESTION,
  subject: HIDDEN_MARKERS.subject,
  finding: `${HIDDEN_MARKERS.finding}: factor X restores Notch signalling in aged satellite cells.`,
  key_points: [`${HIDDEN_MARKERS.keyPoint} one`, `${HIDDEN_MARKERS.keyPoint} two`],
  reference_b: { finding: HIDDEN_MARKERS.referenceB, key_points: [HIDDEN_MARKERS.referenceB] }
}

export const HYPOTHESIS_IDS = ['h-a', 'h-b', 'h-c', 'h-d', 'h-e'].map((s) => `${HIDDEN_MARKERS.hypothesisId}${s}`)

export const hypothesisSet: ItemPayload<'hypothesis-set'> = {
  set_id: HIDDEN_MARKERS.setId,
  task_id: HIDDEN_MARKERS.taskId,
  generator: HIDDEN_MARKERS.generator,
  company: HIDDEN_MARKERS.company,
  scheme: 'omega-point',
  hypotheses: HYPOTHESIS_IDS.map((id, i) => ({
    id,
    statement: `Statement ${i + 1}.`,
    mechanism: `mechanism ${i + 1}`,
    prediction: `prediction ${i + 1}`,
    domain_category: `${HIDDEN_MARKERS.domainCategory}${i}`
  })),
  secret_extra: HIDDEN_MARKERS.extra
}

/** The set with its task attached, as the caller passes it to match judging and forecasting. */
export const hypothesisSetWithTask: ItemPayload<'hypothesis-set'> = { ...hypothesisSet, task: rediscoveryTask }

export const researchQuestion: ItemPayload<'research-question'> = {
  question_id: 'q-017',
  question: 'How does loss of SOD1 activity in motor neurons drive denervation in ageing mice?',
  background: BACKGROUND,
  reference_answer: 'Mitochondrial ROS from SOD1-deficient neurons trigger denervation.',
  key_points: ['mitochondrial ROS', 'denervation'],
  secret_extra: HIDDEN_MARKERS.extra
}

export const researchRubric = [
  { points: 4, item: 'Derives the rate law.' },
  { points: 3.5, item: 'Identifies the rate-limiting step.' },
  { points: 2.5, item: 'Estimates the activation energy.' }
]

export const fsResearch: ItemPayload<'fs-problem'> = {
  track: 'research',
  problem: 'Propose a mechanism for the reaction and estimate its activation energy.',
  answer: 'Points: 4, Item: Derives the rate law.\nPoints: 3.5, Item: Identifies the rate-limiting step.\nPoints: 2.5, Item: Estimates the activation energy.',
  rubric: researchRubric,
  subject: 'chemistry',
  task_group_id: HIDDEN_MARKERS.taskGroup,
  response: 'The rate law is first order in A ...',
  responder: HIDDEN_MARKERS.responder
}

export const fsOlympiad: ItemPayload<'fs-problem'> = {
  track: 'olympiad',
  problem: 'Compute the period of the pendulum in seconds.',
  answer: '6.7',
  subject: 'physics',
  task_group_id: HIDDEN_MARKERS.taskGroup,
  response: 'T = 6.69 s',
  responder: HIDDEN_MARKERS.responder
}

export const idea: ItemPayload<'idea'> = {
  idea: 'Use engineered phages to clear senescent fibroblasts in skin.',
  keywords: 'senescence',
  idea_model: HIDDEN_MARKERS.ideaModel,
  critic_model: HIDDEN_MARKERS.criticModel,
  scores: { originality: HIDDEN_MARKERS.priorScore }
}

export const ideaPair: ItemPayload<'idea-pair'> = {
  idea_a: 'Idea one about autophagy.',
  idea_b: 'Idea two about autophagy.',
  keywords: ['autophagy'],
  generator_a: HIDDEN_MARKERS.generator
}

export const preprintPair: ItemPayload<'preprint-pair'> = {
  paper: { title: 'Published paper', abstract: 'Paper abstract.', authors: 'Doe J, Roe R', doi: HIDDEN_MARKERS.extra },
  preprint: { title: 'Preprint', abstract: 'Preprint abstract.', authors: ['Doe J', 'Roe R'] },
  decision: HIDDEN_MARKERS.labelSource
}

export const referencePair: ItemPayload<'reference-pair'> = {
  task_id: HIDDEN_MARKERS.taskId,
  abstract: HIDDEN_MARKERS.abstract,
  reference_a: { finding: 'Factor X restores Notch signalling.', key_points: ['factor X', 'Notch'] },
  reference_b: { finding: 'Factor X activates Notch in satellite cells.', key_points: ['factor X'] },
  composer_a: HIDDEN_MARKERS.generator,
  composer_b: HIDDEN_MARKERS.company
}

/** Every string and number marker; the caller picks those that a given view must not contain. */
export function markerValues(keys: ReadonlyArray<keyof typeof HIDDEN_MARKERS>): string[] {
  return keys.map((k) => String(HIDDEN_MARKERS[k]))
}
