// LiveIdeaBench's similarity answer is one letter; the adaptation scored it A = 10, B = 7, C = 4, D = 1.

export const SIMILARITY_LETTERS = ['A', 'B', 'C', 'D'] as const
export type SimilarityLetter = (typeof SIMILARITY_LETTERS)[number]

export const SIMILARITY_SCORES: Readonly<Record<SimilarityLetter, number>> = { A: 10, B: 7, C: 4, D: 1 }

export function similarityScore(letter: SimilarityLetter): number {
  return SIMILARITY_SCORES[letter]
}

export function isSimilarityLetter(value: string): value is SimilarityLetter {
  return (SIMILARITY_LETTERS as readonly string[]).includes(value)
}
