import type { RunEnvironment } from '../runner/service'
import { defaultKeyStore } from '../secrets'

// How operations that call providers (runs, model-made probes) reach them: the process's key store — keys entered in
// the window, then the environment's ASSAY_KEY_* — and the SDK clients; tests replace it with the loopback fake's.

let environment: () => RunEnvironment = () => ({ keyStore: defaultKeyStore() })

export function runEnvironment(): RunEnvironment {
  return environment()
}

/** Replaces the environment; returns what puts the one before back (tests share one process, so they restore it). */
export function setRunEnvironment(make: () => RunEnvironment): () => void {
  const before = environment
  environment = make
  return () => {
    environment = before
  }
}

/** Runs `fn` with another environment (the command line's `--api-key-env`), then puts the one before back. */
export async function withRunEnvironment<T>(make: (before: RunEnvironment) => RunEnvironment, fn: () => Promise<T>): Promise<T> {
  const before = environment
  environment = () => make(before())
  try {
    return await fn()
  } finally {
    environment = before
  }
}
