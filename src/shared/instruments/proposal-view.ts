import type { CanonicalPairLabel, Proposal, ProposalPair } from '../items/kinds'
import { canonicalSide, canonicalVerdict, removeFirstH1, shouldSwap, type PairVerdict } from '../protocol'
import { viewerKey } from './common'
import type { BlindingContext, BlindView } from './types'

// How a proposal pair is shown to anyone judging it: the topic and the two proposals' Markdown without the first H1
// (the title), in a seeded per-viewer order. Origin, generator, company, citations, labels, probes, titles, the
// pair id (it names the generator) and cohort metadata never leave main.

export function proposalMarkdownForView(proposal: Proposal): string {
  return removeFirstH1(proposal.markdown)
}

/**
 * IdeaEval's display rule `sha256("<seed>:<key>")`, keyed by `<viewer>:<pair_id>` so that each run gets an
 * independent order; an empty viewer keys by the pair id alone, which reproduces the published runs. Annotators get
 * the balanced layout main computes (`ctx.swapped`).
 */
export function blindProposalPair(pair: ProposalPair, ctx: BlindingContext): BlindView {
  const swapped = ctx.swapped ?? shouldSwap(ctx.seed, viewerKey(ctx, pair.pair_id))
  const [left, right] = swapped ? [pair.b, pair.a] : [pair.a, pair.b]
  return {
    view: {
      topic: pair.topic ?? null,
      a: { markdown: proposalMarkdownForView(left) },
      b: { markdown: proposalMarkdownForView(right) }
    },
    // Which rule placed the sides is kept with every answer and call.
    display: { swapped, rule: ctx.swapped === undefined ? 'ideaeval-hash' : 'balanced-per-annotator' }
  }
}

// The protocol states verdicts and sides with upper-case letters (A_better, A); canonical labels use lower case.

/** The same verdict seen with the two sides exchanged. */
export function swapLabel(label: CanonicalPairLabel): CanonicalPairLabel {
  const mirrored = canonicalVerdict(`${label.charAt(0).toUpperCase()}${label.slice(1)}` as PairVerdict, true)
  return mirrored.toLowerCase() as CanonicalPairLabel
}

export function swapSide(side: 'a' | 'b'): 'a' | 'b' {
  return canonicalSide(side === 'a' ? 'A' : 'B', true) === 'A' ? 'a' : 'b'
}
