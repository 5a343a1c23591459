import type { ProbeFacts } from './probes'
import type { FieldSpec, Observation } from '../instruments/types'
import type { CanonicalPairLabel, Split } from '../items/kinds'
import type { StoredFit } from '../calibrate/types'
import type { ReportFrame } from './frame'

/**
 * What the audit reads from a project, as plain data: items in scope, every source's answers already flattened
 * into observations by the instrument, and nothing else. The report is a pure function of this, so it can be
 * tested on hand-built inputs and benchmarked without a database.
 */

/** How a source came to answer. Derived kinds (human majority, panel) are built by the report itself. */
export const SOURCE_KINDS = [
  'annotator',
  'judge_run',
  'model_import',
  'reference_import',
  'item_label',
  'adjudicated',
  'human_majority',
  'panel',
  /** A judge recalibrated by a stored fit, evaluated on the fit's eval split only. */
  'calibrated'
] as const
export type SourceKind = (typeof SOURCE_KINDS)[number]

/** Sources whose answers are taken as the truth a comparison is scored against. */
export const CRITERION_KINDS: ReadonlySet<SourceKind> = new Set(['item_label', 'reference_import', 'adjudicated', 'human_majority'])
/** Sources that are LLM judges (alone or as a panel): warnings and judge-vs-judge tests concern these. */
export const JUDGE_KINDS: ReadonlySet<SourceKind> = new Set(['judge_run', 'model_import', 'panel', 'calibrated'])

export type CallStatus = 'ok' | 'failed' | 'unparseable' | 'abstained' | 'pending'

/** One answer of a source on one item: a model call (one trial, one display order) or one annotation. */
export interface SourceCall {
  itemId: number
  trial: number
  /** Display order index of a run that asks an item in several orders (0 otherwise). */
  order: number
  /** For pairs: the canonical side that was shown first (from the stored display mapping). */
  shownFirst?: 'a' | 'b'
  status: CallStatus
  /** The instrument's observations of the answer; empty unless the status is ok. */
  observations: Observation[]
  /** Flaw audits: the flaws listed (canonical sides), and how many a model named that could not be used. */
  flaws?: FlawRecord[]
  unparseableFlaws?: number
}

export interface FlawRecord {
  side: 'a' | 'b'
  type: string
  severity: string
  evidence: string
}

export type SourceDetail = Record<string, string | number | boolean | null>

export interface ReportSourceInput {
  id: string
  kind: SourceKind
  name: string
  detail: SourceDetail
  calls: SourceCall[]
}

export interface PairSide {
  origin: 'human' | 'ai' | null
  /** The system that wrote the proposal (a generator name, or 'human'), for strengths and win rates. */
  system: string | null
}

/** Facts of a proposal pair the pairwise statistics need (never shown to anyone judging it). */
export interface PairFacts {
  /** The unit id of the pair's verdict observation (its pair id). */
  unit: string
  label: CanonicalPairLabel | null
  labelSource: string | null
  a: PairSide
  b: PairSide
  cohort: string | null
  probe: string | null
}

export interface ReportItem {
  id: number
  externalId: string
  set: string
  split: Split
  /** Kinds of exposure logged for the item (label viewed, prompt revision, ...); empty when never exposed. */
  exposures: string[]
  pair?: PairFacts
  /** An idea made by a generation run: whether the generator chose it, for the originality comparison. */
  generatedIdea?: GeneratedIdeaFacts
}

export interface GeneratedIdeaFacts {
  selected: boolean
  scheme: string
  /** The run and keyword the idea was generated for: the ideas a choice was made among. */
  group: string
}

/** A human flaw audit of a pair (flaw-audit instrument): per side `has_fatal`, used for fatal-flaw recall. */
export interface FlawAuditInput {
  sourceId: string
  itemId: number
  observations: Observation[]
}

/** A judge's flaw audit of a pair (a flaw-audit run), shown beside the experts' in the pairwise fatal-flaw section. */
export interface JudgeFlawAuditInput extends FlawAuditInput {
  name: string
  /** How the call ended: an unparseable audit is judged (it names nothing); one never answered is counted apart. */
  status: CallStatus
}

export interface ReportInput {
  project: { name: string; id: string }
  instrument: {
    id: string
    title: string
    itemKind: string
    /** Instrument versions found among the answers (a report mixing versions says so). */
    versions: number[]
    fields: ReadonlyArray<FieldSpec>
  }
  /** The split the report is restricted to, or 'all'. */
  split: Split | 'all'
  items: ReportItem[]
  sources: ReportSourceInput[]
  flawAudits: FlawAuditInput[]
  /** Judges' flaw audits of the same pairs (pairwise reports). */
  judgeFlawAudits?: JudgeFlawAuditInput[]
  /** The outcome rule of a 'panel' source among the sources, in words (null when there is none). */
  panelRule?: string | null
  /** Recalibrations fitted on this instrument (each becomes a `calibrated` source). */
  fits?: StoredFit[]
  /**
   * Judges the source filter left out but a chosen fit is made from: read for that fit, listed with why, compared
   * with nothing (source id → why).
   */
  notChosen?: Record<string, string>
  /** Worked checks in the flaw audits behind this report, by how their stored output came about (null: none). */
  workedChecks?: WorkedCheckCounts | null
  /** The project's probes (family, kind, sides, expected rule, check outcome), read with the rest at gathering. */
  probes?: ProbeFacts[]
  /** The sources' answers in columns, made at gathering (made by the report when an input is built by hand). */
  frame?: ReportFrame
}

/** `verified`: main re-ran the code and got the stored output; `mismatch`: main's output is stored, differing from
 * the client's; `unverified`: the client's output as sent; `unrecorded`: imported or stored before re-runs. */
export interface WorkedCheckCounts {
  verified: number
  mismatch: number
  unverified: number
  unrecorded: number
}
