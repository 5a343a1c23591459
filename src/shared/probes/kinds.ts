import { z } from 'zod'

// Probe kinds, versioned like the flaw taxonomy: a stored probe names the kind and the version it was made under, so
// a later change of a kind's rule never rereads old probes against new expectations.

/** What a pairwise judge should answer on an original-vs-probe pair. */
export const PAIRWISE_RULES = ['original_better', 'no_preference'] as const
export type PairwiseRule = (typeof PAIRWISE_RULES)[number]

export const PROBE_SEVERITIES = ['minor', 'major', 'fatal'] as const
export type ProbeSeverity = (typeof PROBE_SEVERITIES)[number]

export interface ProbeKind {
  name: string
  version: number
  title: string
  /** What the edit must do; shown to whoever makes or checks the probe, and given to the model template. */
  instruction: string
  /** The expected pairwise verdict: original better, or no preference from framing alone. */
  pairwise: PairwiseRule
  /** The flaw a flaw audit should find on the probe side (type of the flaw taxonomy and planted severity). */
  flaw: { type: string; severity: ProbeSeverity } | null
  builtin: boolean
}

export const PROBE_KIND_TAXONOMY_VERSION = 1

export const BUILTIN_PROBE_KINDS: ReadonlyArray<ProbeKind> = [
  {
    name: 'formula-error',
    version: 1,
    title: 'Formula error',
    instruction:
      'Change one operator, exponent, sign, index or constant in one displayed or inline equation so that the ' +
      'derivation no longer holds. Change nothing else.',
    pairwise: 'original_better',
    flaw: { type: 'unsound_method', severity: 'major' },
    builtin: true
  },
  {
    name: 'inflated-framing',
    version: 1,
    title: 'Inflated framing',
    instruction:
      'Rewrite the claims into overclaiming and superlatives ("first-ever", "paradigm-shifting", "provably") without ' +
      'changing the content: the same method, data, experiments and results.',
    // Framing alone carries no substance: a judge should not prefer either side for it.
    pairwise: 'no_preference',
    flaw: null,
    builtin: true
  },
  {
    name: 'prior-art-duplicate',
    version: 1,
    title: 'Prior-art duplicate',
    instruction:
      'Replace the central contribution with a faithful summary of an existing, named published work, presented as ' +
      'the proposal’s own idea. Keep the structure and the rest of the text.',
    pairwise: 'original_better',
    flaw: { type: 'covered_by_prior_work', severity: 'fatal' },
    builtin: true
  },
  {
    name: 'citation-fabrication',
    version: 1,
    title: 'Fabricated citation',
    instruction:
      'Add one plausible but non-existent reference (authors, year, title, venue) and cite it where it supports a ' +
      'claim. Change nothing else.',
    pairwise: 'original_better',
    flaw: { type: 'hallucinated_content', severity: 'major' },
    builtin: true
  }
]

export const probeKindNameSchema = z
  .string()
  .regex(/^[a-z][a-z0-9-]{1,40}$/, 'a probe kind is lower-case letters, digits and hyphens (2–41 characters)')

export const userProbeKindSchema = z.object({
  name: probeKindNameSchema,
  title: z.string().min(1),
  instruction: z.string().min(1),
  pairwise: z.enum(PAIRWISE_RULES),
  flaw: z.object({ type: z.string().min(1), severity: z.enum(PROBE_SEVERITIES) }).nullable()
})
export type UserProbeKind = z.infer<typeof userProbeKindSchema>

export function builtinProbeKind(name: string): ProbeKind | undefined {
  return BUILTIN_PROBE_KINDS.find((k) => k.name === name)
}
