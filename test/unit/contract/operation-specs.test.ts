import { describe, expect, it } from 'vitest'
import { OPERATION_NAMES, operations } from '../../../src/shared/contract/operations'
import { operationSpec } from '../../../src/shared/contract/operation-specs'

// The dispatcher reads one operation's spec by its group, without building the whole contract: every operation is
// found there as the very object of the one table, and nothing else is.

describe('one operation’s spec, loaded by its group', () => {
  it('is the object of the one contract, for every operation', async () => {
    for (const name of OPERATION_NAMES) expect(await operationSpec(name), name).toBe(operations[name])
  })

  it('is undefined for a name the contract does not have, whatever it looks like', async () => {
    for (const name of ['', 'items', 'items.', 'items.nope', 'nope.list', 'toString', '__proto__.x', 'constructor.name', 'items.toString', 'report.__proto__']) {
      expect(await operationSpec(name), name).toBeUndefined()
    }
  })
})
