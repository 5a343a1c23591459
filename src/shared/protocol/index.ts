export { seedText, seededUnit, sha256Hex, sha256Prefix64 } from './hash'
export {
  PAIR_VERDICTS,
  canonicalSide,
  canonicalVerdict,
  displayPair,
  preferredSide,
  shouldSwap,
  type PairVerdict,
  type Side
} from './display'
export {
  SHUFFLE_METHOD,
  invertOrder,
  labelledOrder,
  seededOrder,
  seededShuffle,
  type LabelledOrder,
  type SeededOrder
} from './shuffle'
export {
  BUCKET_HASHES,
  OMEGA_FOURTH_ROLE_PURPOSE,
  OMEGA_LENSES,
  OMEGA_LENS_PURPOSE,
  SHA256_MOD_V1,
  omegaAssignment,
  type BucketHash,
  type OmegaAssignment,
  type OmegaLensKey
} from './omega'
export { fillSelection, formatHypothesisText, type HypothesisFields, type SelectionResult } from './hypothesis'
export {
  PREVIOUS_STAGES_HEADING,
  formatBulletList,
  formatLabelledBlocks,
  formatNumberedList,
  formatPreviousStages,
  joinSemicolons,
  type StageAnswer
} from './format'
export { CITATION_MIN_ABS_GAP, CITATION_MIN_LOG_GAP, citationPairPasses, removeFirstH1 } from './ideaeval'
export {
  SIMILARITY_LETTERS,
  SIMILARITY_SCORES,
  isSimilarityLetter,
  similarityScore,
  type SimilarityLetter
} from './similarity'
