import type { RunEnvironment } from '../runner/service'
import { defaultKeyStore } from '../secrets'

// How operations that call providers (runs, model-made probes) reach them: the process's key store — keys entered in
// the window, then the environment's ASSAY_KEY_* — and the SDK clients; tests replace it with the loopback fake's.

let environment: () => RunEnvironment = () => ({ keyStore: defaultKeyStore() })

export function runEnvironment(): RunEnvironment {
  return environment()
}

export function setRunEnvironment(make: () => RunEnvironment): void {
  environment = make
}
