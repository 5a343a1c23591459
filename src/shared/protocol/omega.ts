import { sha256Prefix64 } from './hash'

// The Omega Point scheme gives stage 3 one of five epistemic lenses and grants a fourth role
// (PHENOMENON-DOESN'T-EXIST) in one task of five, both "by a hash of the task identifier". The source does not name
// the hash, so Assay defines it, names it and records the name with every assignment.

/** The five lenses in the source's order; the text of each is the template fragment omega-lenses, part `key`. */
export const OMEGA_LENSES = [
  { key: 'distributed-consensus-architecture', name: 'Distributed Consensus Architecture' },
  { key: 'information-theory-error-correction', name: 'Information Theory & Error Correction' },
  { key: 'complex-adaptive-systems', name: 'Complex Adaptive Systems' },
  { key: 'reliability-engineering', name: 'Reliability Engineering' },
  { key: 'cybernetic-control-systems', name: 'Cybernetic Control Systems' }
] as const
export type OmegaLensKey = (typeof OMEGA_LENSES)[number]['key']

/** A deterministic, named choice of a bucket for a key. `purpose` keeps choices for different uses independent. */
export interface BucketHash {
  readonly name: string
  readonly description: string
  bucket(purpose: string, key: string, buckets: number): number
}

export const SHA256_MOD_V1: BucketHash = {
  name: 'sha256-mod-v1',
  description:
    'int(sha256(f"{purpose}:{key}").hexdigest()[:16], 16) % buckets, over the UTF-8 bytes of the text',
  bucket(purpose, key, buckets) {
    if (!Number.isInteger(buckets) || buckets < 1) throw new RangeError(`buckets must be a positive integer, got ${buckets}`)
    return Number(sha256Prefix64(`${purpose}:${key}`) % BigInt(buckets))
  }
}

/** Every bucket hash a stored assignment may name. */
export const BUCKET_HASHES: Readonly<Record<string, BucketHash>> = { [SHA256_MOD_V1.name]: SHA256_MOD_V1 }

export const OMEGA_LENS_PURPOSE = 'omega-lens'
export const OMEGA_FOURTH_ROLE_PURPOSE = 'omega-fourth-role'

export interface OmegaAssignment {
  /** Name of the hash that decided it. */
  hash: string
  taskId: string
  lensIndex: number
  lensKey: OmegaLensKey
  lensName: string
  /** Whether the task is granted the PHENOMENON-DOESN'T-EXIST role (stage-4 template omega-stage-4-granted). */
  fourthRole: boolean
}

/**
 * The lens and the fourth-role grant of a task. The grant falls to bucket 0 of 5, so one task in five on average;
 * over a given set of tasks the share varies like a binomial count.
 */
export function omegaAssignment(taskId: string, hash: BucketHash = SHA256_MOD_V1): OmegaAssignment {
  const lensIndex = hash.bucket(OMEGA_LENS_PURPOSE, taskId, OMEGA_LENSES.length)
  const lens = OMEGA_LENSES[lensIndex]
  if (lens === undefined) throw new RangeError(`hash ${hash.name} gave lens ${lensIndex}`)
  return {
    hash: hash.name,
    taskId,
    lensIndex,
    lensKey: lens.key,
    lensName: lens.name,
    fourthRole: hash.bucket(OMEGA_FOURTH_ROLE_PURPOSE, taskId, 5) === 0
  }
}
