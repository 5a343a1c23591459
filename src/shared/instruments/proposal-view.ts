import type { CanonicalPairLabel, Proposal, ProposalPair } from '../items/kinds'
import { removeFirstH1, shouldSwap } from '../protocol'
import { viewerKey } from './common'
import type { BlindingContext, BlindView } from './types'

// How a proposal pair is shown to anyone judging it: the topic and the two proposals' Markdown without the first H1
// (the title), in a seeded per-viewer order. Origin, generator, company, citations, labels, probes, titles, the
// pair id (it names the generator) and cohort metadata never leave main.

export function proposalMarkdownForView(proposal: Proposal): string {
  return removeFirstH1(proposal.markdown)
}

/**
 * IdeaEval's display rule `sha256("<seed>:<key>")`, keyed by `<viewer>:<pair_id>` so that each annotator or run gets
 * an independent order; an empty viewer keys by the pair id alone, which reproduces the published runs.
 */
export function blindProposalPair(pair: ProposalPair, ctx: BlindingContext): BlindView {
  const swapped = shouldSwap(ctx.seed, viewerKey(ctx, pair.pair_id))
  const [left, right] = swapped ? [pair.b, pair.a] : [pair.a, pair.b]
  return {
    view: {
      topic: pair.topic ?? null,
      a: { markdown: proposalMarkdownForView(left) },
      b: { markdown: proposalMarkdownForView(right) }
    },
    display: { swapped }
  }
}

const SWAPPED_LABEL: Record<CanonicalPairLabel, CanonicalPairLabel> = {
  a_much_better: 'b_much_better',
  a_better: 'b_better',
  b_better: 'a_better',
  b_much_better: 'a_much_better'
}

/** The same verdict seen with the two sides exchanged. */
export function swapLabel(label: CanonicalPairLabel): CanonicalPairLabel {
  return SWAPPED_LABEL[label]
}

export function swapSide(side: 'a' | 'b'): 'a' | 'b' {
  return side === 'a' ? 'b' : 'a'
}
