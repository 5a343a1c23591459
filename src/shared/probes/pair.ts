import type { CanonicalPairLabel, ProposalPair } from '../items/kinds'
import { sha256Prefix64, seedText } from '../protocol/hash'
import { textDiff } from './diff'
import type { FormulaEdit } from './formula-edit'
import type { ProbeKind } from './kinds'
import type { ProbeProvenance } from './provenance'

// An original-vs-probe pair: one proposal of an original pair, unchanged, beside its probe. Which canonical side
// holds the probe is a seeded choice per family and kind, so probes sit on A and B about equally often; display
// order on top of that follows the usual per-viewer blinding of proposal pairs.

export interface ProbePairInput {
  original: ProposalPair
  side: 'a' | 'b'
  kind: ProbeKind
  probeMarkdown: string
  madeBy: ProbeProvenance['made_by']
  edit?: FormulaEdit | null
  seed: string
}

export function probeFamily(originalPairId: string, side: 'a' | 'b'): string {
  return `${originalPairId}:${side}`
}

export function probePairId(originalPairId: string, side: 'a' | 'b', kind: string): string {
  return `${originalPairId}~${side}~${kind}`
}

/** The expected canonical verdict of the pair, or null where the rule is "no preference from framing alone". */
export function expectedLabel(provenance: Pick<ProbeProvenance, 'probe_side' | 'expected'>): CanonicalPairLabel | null {
  if (provenance.expected.pairwise === 'no_preference') return null
  return provenance.probe_side === 'b' ? 'a_better' : 'b_better'
}

/** Where in the probe the planted flaw is: the changed text, when it is an exact quote of the probe. */
function plantedEvidence(input: ProbePairInput): string | null {
  if (input.edit) return input.edit.equation.after
  const added = textDiff(input.original[input.side].markdown, input.probeMarkdown)
    .filter((p) => p.op === 'added' && p.text.trim().length >= 8)
    .sort((x, y) => y.text.length - x.text.length)[0]
  return added ? added.text.trim() : null
}

export function buildProbePair(input: ProbePairInput): { pairId: string; payload: ProposalPair; provenance: ProbeProvenance } {
  const { original, side, kind } = input
  const family = probeFamily(original.pair_id, side)
  const probeSide: 'a' | 'b' = sha256Prefix64(`${seedText(input.seed)}:${family}:${kind.name}:probe-side`) % 2n === 0n ? 'a' : 'b'
  const source = original[side]
  const probe = { ...source, markdown: input.probeMarkdown }
  const provenance: ProbeProvenance = {
    family,
    original: { item: original.pair_id, side },
    kind: kind.name,
    kind_version: kind.version,
    kind_title: kind.title,
    kind_instruction: kind.instruction,
    probe_side: probeSide,
    made_by: input.madeBy,
    edit: input.edit ?? null,
    diff: textDiff(source.markdown, input.probeMarkdown),
    expected: {
      pairwise: kind.pairwise,
      flaw: kind.flaw ? { ...kind.flaw, evidence: plantedEvidence(input) } : null
    }
  }
  const pairId = probePairId(original.pair_id, side, kind.name)
  const payload: ProposalPair = {
    pair_id: pairId,
    topic: original.topic ?? null,
    cohort: original.cohort ?? null,
    cutoff_date: original.cutoff_date ?? null,
    a: probeSide === 'a' ? probe : { ...source },
    b: probeSide === 'b' ? probe : { ...source },
    label: expectedLabel(provenance),
    label_source: 'probe',
    probe: kind.name,
    probe_of: provenance
  }
  return { pairId, payload, provenance }
}

/** The probe's provenance from a pair payload, if it is a probe pair. */
export function probeOf(pair: Record<string, unknown>): unknown {
  return pair.probe_of
}
