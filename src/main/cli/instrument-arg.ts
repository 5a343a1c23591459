import { InvalidArgumentError } from 'commander'
import { INSTRUMENT_IDS } from '../../shared/instruments/types'

// `--instrument` of every command: a built-in id, or the id of an instrument the project declared. Which ids a
// project declared is known only once it is open, so the command checks that; here only the form of the id is.

const ID = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/

export function instrumentArg<const T extends string>(extra: readonly T[] = []) {
  return (value: string): string => {
    if ((extra as readonly string[]).includes(value) || ID.test(value)) return value
    throw new InvalidArgumentError(`expected one of ${[...INSTRUMENT_IDS, ...extra].join(', ')}, or the id of an instrument the project declared`)
  }
}

export function instrumentHelp(extra: readonly string[] = []): string {
  return `${[...INSTRUMENT_IDS, ...extra].join(' | ')} | a declared instrument's id`
}
