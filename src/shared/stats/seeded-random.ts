import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand'

/** Names the generator in results so a reported interval can be reproduced. */
export const RANDOM_GENERATOR = 'pure-rand@7 xoroshiro128plus'

export type SeededRandom = {
  /** A uniformly distributed integer in [0, bound). */
  integerBelow(bound: number): number
}

/** A seeded stream of random integers; the same seed always yields the same stream. */
export function seededRandom(seed: number): SeededRandom {
  assertSeed(seed)
  const generator = xoroshiro128plus(seed)
  return {
    integerBelow(bound) {
      if (!(Number.isInteger(bound) && bound >= 1)) throw new RangeError(`bound must be a positive integer (${bound})`)
      return unsafeUniformIntDistribution(0, bound - 1, generator)
    }
  }
}

/** The generator reads a seed as 32 bits, so larger or negative seeds would silently collide with others. */
export function assertSeed(seed: number): void {
  if (!(Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff)) {
    throw new RangeError(`seed must be an integer in [0, 2^32 − 1] (${seed})`)
  }
}
