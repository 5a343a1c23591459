import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'

// The sha256 family every seeded choice in Assay is built on. IdeaEval's display rule is its reference:
// v = int(sha256(f"{seed}:{key}").hexdigest()[:16], 16) / 16**16.

/** Lower-case hex sha256 of the UTF-8 bytes of `text`. */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)))
}

/** The first 64 bits of sha256(text) as an unsigned integer. */
export function sha256Prefix64(text: string): bigint {
  return BigInt(`0x${sha256Hex(text).slice(0, 16)}`)
}

const TWO_POW_64 = 2 ** 64

/** Python's f"{seed}" for the seeds Assay accepts: a string as it is, an integer in decimal. */
export function seedText(seed: string | number): string {
  if (typeof seed === 'number' && !Number.isSafeInteger(seed)) {
    throw new RangeError(`a numeric seed must be a safe integer, got ${seed}`)
  }
  return String(seed)
}

/**
 * A number in [0, 1) fixed by seed and key: int(sha256(f"{seed}:{key}").hexdigest()[:16], 16) / 16**16.
 * Number(bigint) rounds to nearest like Python's int/int true division, and dividing by 2**64 is exact, so the
 * result equals Python's float bit for bit.
 */
export function seededUnit(seed: string | number, key: string): number {
  return Number(sha256Prefix64(`${seedText(seed)}:${key}`)) / TWO_POW_64
}
