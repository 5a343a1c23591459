import { describe, expect, it } from 'vitest'
import { HANDLED_COMMAND_KEYS } from '../../../src/renderer/src/annotate/use-item-keys'
import { INSTRUMENTS } from '../../../src/shared/instruments'
import { buildInstrument } from '../../../src/shared/instruments/declared/build'
import { readDeclaration } from '../../../src/shared/instruments/declared/read'
import { answerKeysOf, fieldActionKeysOf, ITEM_COMMAND_KEYS } from '../../../src/shared/instruments/screen-keys'
import type { AnyInstrument, Widget } from '../../../src/shared/instruments/types'

// One key, one meaning on the annotation screen: commands work wherever the cursor rests outside a text box, so an
// answer that used a command's key would be shadowed by it (as `n`, once "next item", shadowed No).

type Leaf = Exclude<Widget, { kind: 'units' | 'list' }>

function leaves(widgets: ReadonlyArray<Widget>): Leaf[] {
  return widgets.flatMap((w) => (w.kind === 'units' || w.kind === 'list' ? leaves(w.widgets) : [w]))
}

/** Every key of the instrument's screen that has two meanings, named with both. */
function collisions(inst: AnyInstrument): string[] {
  const fields = leaves(inst.form.widgets)
  const meaning = new Map<string, string>(HANDLED_COMMAND_KEYS.map((k) => [k, `command ${JSON.stringify(k)}`]))
  for (const w of fields) for (const k of fieldActionKeysOf(w)) meaning.set(k, `${w.label}: action`)
  const found: string[] = []
  for (const w of fields) {
    const own = new Set<string>()
    for (const k of answerKeysOf(w)) {
      if (own.has(k)) found.push(`${inst.id}: "${k}" answers ${w.label} twice`)
      own.add(k)
      const other = meaning.get(k)
      if (other) found.push(`${inst.id}: "${k}" answers ${w.label} and is ${other}`)
    }
  }
  return found
}

describe('the keys of the annotation screen', () => {
  it('handles exactly the shared command keys, and no plain letter moves to another item', () => {
    expect(HANDLED_COMMAND_KEYS).toEqual(expect.arrayContaining([...ITEM_COMMAND_KEYS]))
    expect(HANDLED_COMMAND_KEYS.filter((k) => k.length === 1).sort()).toEqual([...ITEM_COMMAND_KEYS].sort())
    expect(HANDLED_COMMAND_KEYS).not.toContain('n')
    expect(HANDLED_COMMAND_KEYS).not.toContain('p')
  })

  it.each(Object.keys(INSTRUMENTS))('gives every key of %s one meaning: no answer key is a command or another answer of its field', (id) => {
    expect(collisions(INSTRUMENTS[id as keyof typeof INSTRUMENTS])).toEqual([])
  })

  it('keeps yes/no on y and n, so No is answered by n wherever the cursor is outside a box', () => {
    const olympiad = leaves(INSTRUMENTS['fs-olympiad-grade'].form.widgets).find((w) => w.kind === 'boolean')!
    expect(answerKeysOf(olympiad)).toEqual(['y', 'n'])
  })

  it('gives options a declaration leaves without a key none of the command keys', () => {
    const options = Array.from({ length: 30 }, (_, i) => ({ value: `o${i}`, label: `Option ${i}` }))
    const r = readDeclaration(JSON.stringify({ id: 'many-options', title: 'Many', item: 'text', fields: [{ name: 'pick', label: 'Pick', kind: 'choice', options }], prompt: { user: '{{text}}' } }), 'many.json')
    if (!r.ok) throw new Error(JSON.stringify(r.problems))
    const inst = buildInstrument(r.declaration, 1)
    expect(collisions(inst)).toEqual([])
    // Nine digits and fifteen letters; an option past them is clicked.
    expect(answerKeysOf(leaves(inst.form.widgets)[0]!)).toHaveLength(24)
  })
})
