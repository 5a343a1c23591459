import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { missingRequired } from '../../../src/shared/instruments/requirements'
import { getInstrument, isInstrumentId } from '../../../src/shared/instruments'
import { buildInstrument } from '../../../src/shared/instruments/declared/build'
import { readDeclaration } from '../../../src/shared/instruments/declared/read'
import { addProjectInstrument, projectInstrumentRows } from '../../../src/main/store/instruments'
import { Project } from '../../../src/main/store/project'
import { repoRoot, tempDir } from '../../support/tmp'

const FILE = readFileSync(join(repoRoot, 'test', 'fixtures', 'instruments', 'idea-study.yaml'), 'utf8')
const tmp = tempDir()
afterAll(() => tmp.cleanup())

function declared() {
  const r = readDeclaration(FILE, 'idea-study.yaml')
  if (!r.ok) throw new Error(JSON.stringify(r.problems))
  return r.declaration
}

describe('a declaration file', () => {
  it('names the line and field of each problem', () => {
    const r = readDeclaration(FILE.replace('    max: 10\n    points', '    max: 0\n    points'), 'idea-study.yaml')
    expect(r.ok).toBe(false)
    if (r.ok) return
    const lines = FILE.split('\n')
    const maxLine = lines.findIndex((l) => l === '    max: 10') + 1
    expect(r.problems).toContainEqual({ file: 'idea-study.yaml', line: maxLine, field: 'fields.0.max', message: 'max must be above min' })
    const kind = readDeclaration(FILE.replace('kind: choice', 'kind: choise'), 'idea-study.yaml')
    const choiceLine = lines.findIndex((l) => l.includes('name: verdict')) + 1
    expect(kind.ok ? [] : kind.problems).toEqual([expect.objectContaining({ file: 'idea-study.yaml', line: choiceLine + 1, field: 'fields.3.kind' })])
  })

  it('refuses a built-in id, a repeated field, a condition on an unknown option and an unknown placeholder', () => {
    const text = JSON.stringify({
      id: 'idea-review',
      title: 'T',
      item: 'text',
      fields: [
        { name: 'a', kind: 'choice', label: 'A', options: [{ value: 'x', label: 'X' }, { value: 'y', label: 'Y' }] },
        { name: 'a', kind: 'text', label: 'Again' },
        { name: 'why', kind: 'text', label: 'Why', required_when: { field: 'a', in: ['z'] } }
      ],
      prompt: { user: 'Rate {{text}} and {{proposal}}' }
    }, null, 2)
    const r = readDeclaration(text, 'x.json')
    expect(r.ok).toBe(false)
    if (r.ok) return
    const byField = Object.fromEntries(r.problems.map((p) => [p.field, p]))
    expect(byField.id).toMatchObject({ line: 2, message: expect.stringMatching(/built-in/) })
    expect(byField['fields.1.name']!.message).toMatch(/declared twice/)
    expect(byField['fields.2.required_when.in.0']!.message).toMatch(/"z" is not an option of a/)
    expect(byField['prompt.user']!.message).toMatch(/\{\{proposal\}\} is not a value/)
  })

  it('refuses an option key that is a command of the annotation screen, at its line', () => {
    const text = FILE.replace('      - { value: reject, label: Reject }', '      - { value: reject, label: Reject, key: s }')
    const r = readDeclaration(text, 'idea-study.yaml')
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.problems).toEqual([
      expect.objectContaining({ file: 'idea-study.yaml', line: 31, field: 'fields.3.options.0.key', message: expect.stringContaining('the key "s" is a command of the annotation screen') })
    ])
    // A key no command uses is taken.
    expect(readDeclaration(FILE.replace('      - { value: reject, label: Reject }', '      - { value: reject, label: Reject, key: x }'), 'idea-study.yaml').ok).toBe(true)
  })

  it('reports a YAML syntax error and a repeated key at their lines', () => {
    const r = readDeclaration('id: x\ntitle: T\ntitle: U\n', 'd.yaml')
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.problems[0]).toMatchObject({ file: 'd.yaml', line: 3 })
  })
})

describe('a declared instrument and a built-in one', () => {
  it('are validated alike: the schema, the required fields and the measurement levels', () => {
    const inst = buildInstrument(declared(), 1)
    const builtIn = getInstrument('idea-review')
    // Out of range on either is refused by its judgement schema.
    expect(inst.judgement.safeParse({ novelty: 11, excitement: 5, feasibility: 5, verdict: 'accept' }).success).toBe(false)
    expect(builtIn.judgement.safeParse({ originality: 11, feasibility: 5, clarity: 5 }).success).toBe(false)
    expect(inst.judgement.safeParse({ novelty: 10, excitement: 5, feasibility: 5, verdict: 'Accept' }).success).toBe(true)
    // The form's empty answer is incomplete for both, by the same rule.
    expect(inst.judgement.safeParse(inst.form.empty({})).success).toBe(false)
    expect(builtIn.judgement.safeParse(builtIn.form.empty({})).success).toBe(false)
    expect(missingRequired(inst, inst.form.empty({}))).toEqual([])
    expect(inst.fields.map((f) => [f.name, f.level])).toEqual([['novelty', 'ordinal'], ['excitement', 'ordinal'], ['feasibility', 'ordinal'], ['verdict', 'ordinal']])
    expect(inst.observe({ novelty: 3, excitement: 4, feasibility: 5, verdict: 'reject', rationale: 'r' }, { idea: 't' })).toEqual([
      { unit: 'item', values: { novelty: 3, excitement: 4, feasibility: 5, verdict: 'reject' } }
    ])
  })

  it('refuses a probability out of its bounds with one message per bound, declared or not', () => {
    for (const bounds of ['', 'min: 0, max: 1, ', 'min: 0.1, max: 0.9, ']) {
      const text = FILE.replace('  - name: rationale', `  - { name: confidence, kind: number, label: Confidence, ${bounds}level: probability }\n  - name: rationale`)
      const r = readDeclaration(text, 'idea-study.yaml')
      if (!r.ok) throw new Error(JSON.stringify(r.problems))
      const inst = buildInstrument(r.declaration, 1)
      const answer = (confidence: number) => inst.judgement.safeParse({ novelty: 5, excitement: 5, feasibility: 5, verdict: 'accept', confidence })
      const high = answer(1.5)
      expect(high.success).toBe(false)
      expect(high.error!.issues.filter((i) => i.path.join('.') === 'confidence')).toHaveLength(1)
      expect(answer(-0.5).error!.issues).toHaveLength(1)
      expect(answer(0.5).success).toBe(true)
    }
  })

  it('mirrors a pair’s side-naming answers with the sides shown', () => {
    const r = readDeclaration(JSON.stringify({
      id: 'pair-pref',
      title: 'Which',
      item: 'pair',
      fields: [
        { name: 'better', kind: 'choice', label: 'Better', options: [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }], swap: { a: 'b', b: 'a' } },
        { name: 'lean', kind: 'scale', label: 'Lean', min: 1, max: 7, mirror: true }
      ]
    }), 'p.json')
    expect(r.ok).toBe(true)
    if (!r.ok) return
    const inst = buildInstrument(r.declaration, 1)
    expect(inst.toCanonical({ better: 'a', lean: 2 }, { swapped: true })).toEqual({ better: 'b', lean: 6 })
    expect(inst.toCanonical({ better: 'a', lean: 2 }, { swapped: false })).toEqual({ better: 'a', lean: 2 })
  })
})

describe('declarations stored in a project', () => {
  it('are versioned: the same again adds nothing, a changed one is the next version, and the newest is registered', async () => {
    const path = tmp.file('v.assay')
    const project = await Project.create(path)
    const d = declared()
    expect(project.write((db) => addProjectInstrument(db, d))).toMatchObject({ status: 'added', version: 1 })
    expect(project.write((db) => addProjectInstrument(db, { ...d }))).toMatchObject({ status: 'unchanged', version: 1 })
    expect(project.write((db) => addProjectInstrument(db, { ...d, title: 'Renamed' }))).toMatchObject({ status: 'added', version: 2 })
    expect(projectInstrumentRows(project.db, 'idea-study').map((r) => r.version)).toEqual([1, 2])
    project.close()
    const reopened = await Project.open(path)
    expect(isInstrumentId('idea-study')).toBe(true)
    expect(getInstrument('idea-study')).toMatchObject({ version: 2, title: 'Renamed', itemKind: 'idea' })
    reopened.close()
  })
})
