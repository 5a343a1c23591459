import { z } from 'zod'

const interval = z.object({ low: z.number().nullable(), high: z.number().nullable(), reason: z.string().nullable() })

/** One source's detection of one probe kind on the verified probes it answered. */
export const probeDetectionRowSchema = z.object({
  source: z.string(),
  /** `judge` (runs, imported model answers, panels, recalibrations) or `human` (annotators, and all of them pooled). */
  role: z.enum(['judge', 'human']),
  kind: z.string(),
  /** What counts as detection: pairwise — the original preferred; flaw audit — a flaw listed on the probe side. */
  rule: z.string(),
  n_probes: z.number().int(),
  n_families: z.number().int(),
  /** Items whose answers are split evenly between detecting and not (left out of n_probes). */
  n_tied: z.number().int(),
  /** Verified probes of the kind the source was asked but never answered (failed, pending, abstained, or answered without a side): left out of n_probes, never scored. One read as unparseable is in n_probes, detecting nothing. */
  n_unanswered: z.number().int(),
  detected: z.number(),
  rate: z.number().nullable(),
  wilson: interval,
  bootstrap: interval,
  /** Flaw audits only: probes where a flaw of the planted type was listed on the probe side. */
  type_matched: z.number().nullable(),
  /** Flaw audits only: probes where a flaw listed on the probe side quotes the planted change (or is quoted by it). */
  location_matched: z.number().nullable()
})

/** How often the inflated version wins where framing alone should decide nothing. */
export const framingPreferenceRowSchema = z.object({
  source: z.string(),
  role: z.enum(['judge', 'human']),
  kind: z.string(),
  n_probes: z.number().int(),
  n_families: z.number().int(),
  n_tied: z.number().int(),
  n_unanswered: z.number().int(),
  probe_wins: z.number(),
  rate: z.number().nullable(),
  wilson: interval,
  bootstrap: interval
})

export const probesSectionSchema = z.object({
  /** Probe items in the report's scope, by verification: only verified probes are counted below. */
  n_probes: z.number().int(),
  n_verified: z.number().int(),
  n_rejected: z.number().int(),
  n_unchecked: z.number().int(),
  by_kind: z.array(z.object({ kind: z.string(), verified: z.number().int(), rejected: z.number().int(), unchecked: z.number().int() })),
  /** The expected verdict of each kind's pairs: `original_better`, or `no_preference` (framing alone). */
  rules: z.record(z.string(), z.string()),
  detection: z.array(probeDetectionRowSchema),
  framing_preference: z.array(framingPreferenceRowSchema),
  level: z.number(),
  bootstrap: z.object({ resamples: z.number().int(), seed: z.number().int(), unit: z.literal('probe family') })
})
export type ProbesSection = z.infer<typeof probesSectionSchema>
export type ProbeDetectionRow = z.infer<typeof probeDetectionRowSchema>
