import { describe, expect, it } from 'vitest'
import { INSTRUMENT_IDS } from '../../../src/shared/instruments/types'
import {
  TEMPLATE_INSTRUMENTS,
  TemplateManifestError,
  buildTemplateSet,
  findTemplate,
  getTemplate,
  parseTemplateManifest,
  parseTemplateManifestJson,
  templateProblems,
  type TemplateEntry
} from '../../../src/shared/templates'
import { loadBuiltInTemplates, readTemplateFile } from './support/load-templates'

function entry(over: Partial<TemplateEntry> = {}): Record<string, unknown> {
  return {
    id: 'probe',
    version: 1,
    kind: 'request',
    instrument: 'leak-audit',
    answerFormat: 'json',
    grokSuffix: false,
    placeholders: [{ name: 'background', token: '[BACKGROUND]', description: 'b' }],
    source: { seed: 'x.txt', section: 's' },
    files: { user: 'probe/v1.user.txt' },
    ...over
  }
}

function problems(input: unknown): readonly string[] {
  try {
    parseTemplateManifest(input)
  } catch (err) {
    if (err instanceof TemplateManifestError) return err.problems
    throw err
  }
  return []
}

describe('template manifest', () => {
  it('parses the built-in manifest and loads every file', () => {
    const set = loadBuiltInTemplates()
    // 36 quoted or written for Assay, 7 derived from quoted ones (the idea chains).
    expect(set.templates.length).toBe(43)
    expect(set.templates.filter((t) => t.entry.derived !== undefined)).toHaveLength(7)
    expect(set.templates.every((t) => templateProblems(t).length === 0)).toBe(true)
  })

  it('knows every instrument, plus generation', () => {
    expect([...TEMPLATE_INSTRUMENTS].sort()).toEqual([...INSTRUMENT_IDS, 'generation'].sort())
  })

  it('accepts a minimal entry', () => {
    expect(problems({ schemaVersion: 1, templates: [entry()] })).toEqual([])
  })

  it('marks a derived template with what it comes from, and refuses one without a seed', () => {
    const derived = { from: ['hypothesis-stage@1'], rule: 'deriveIdeaTemplates' }
    expect(problems({ schemaVersion: 1, templates: [entry({ derived })] })).toEqual([])
    expect(problems({ schemaVersion: 1, templates: [entry({ derived, source: { seed: null, section: 'Assay' }, note: 'n' })] })).toEqual([
      'templates.0.derived: a derived template names the seed whose rule it follows'
    ])
    expect(problems({ schemaVersion: 1, templates: [entry({ derived: { from: ['hypothesis-stage'], rule: 'r' } })] })).toHaveLength(1)
  })

  it('refuses duplicates of id and version', () => {
    expect(problems({ schemaVersion: 1, templates: [entry(), entry()] })).toEqual(['templates.1: duplicate template probe@1'])
  })

  it('refuses a request without a user file, or with other parts', () => {
    expect(problems({ schemaVersion: 1, templates: [entry({ files: { system: 'p/v1.system.txt' } })] })).toEqual([
      'templates.0.files: a request has a user file'
    ])
    expect(problems({ schemaVersion: 1, templates: [entry({ files: { user: 'p/u.txt', text: 'p/t.txt' } })] })).toEqual([
      'templates.0.files.text: a request has only system and user files'
    ])
  })

  it('refuses paths that leave the folder', () => {
    const out = problems({ schemaVersion: 1, templates: [entry({ files: { user: 'probe/../../etc/passwd.txt' } })] })
    expect(out.length).toBeGreaterThan(0)
    expect(out.every((p) => p.startsWith('templates.0.files.user'))).toBe(true)
  })

  it('refuses a token inside another token, duplicate names and a {{name}} token of another name', () => {
    const out = problems({
      schemaVersion: 1,
      templates: [
        entry({
          placeholders: [
            { name: 'one', token: '[KEY POINT 1]', description: 'x' },
            { name: 'list', token: '- [KEY POINT 1]\n- [KEY POINT 2]', description: 'x' },
            { name: 'one', token: '{{two}}', description: 'x' }
          ]
        })
      ]
    })
    expect(out).toEqual([
      'templates.0.placeholders.2.token: token {{two}} names another placeholder than one',
      'templates.0.placeholders.2.name: duplicate name one',
      'templates.0.placeholders.0.token: token of one occurs inside the token of list'
    ])
  })

  it('asks a template without a source for a note', () => {
    expect(problems({ schemaVersion: 1, templates: [entry({ source: { seed: null, section: 'Assay' } })] })).toEqual([
      'templates.0.note: a template without a source says what it is in a note'
    ])
  })

  it('reports JSON syntax errors', () => {
    expect(() => parseTemplateManifestJson('{"schemaVersion": 1,')).toThrow(TemplateManifestError)
  })
})

describe('buildTemplateSet', () => {
  const manifest = parseTemplateManifest({
    schemaVersion: 1,
    templates: [entry(), entry({ version: 2, files: { user: 'probe/v2.user.txt' } })]
  })

  it('reads each file through the reader and finds templates by id and version', () => {
    const read: string[] = []
    const set = buildTemplateSet(manifest, (p) => {
      read.push(p)
      return p.includes('v2') ? 'v2 [BACKGROUND]' : 'v1 [BACKGROUND]'
    })
    expect(read).toEqual(['probe/v1.user.txt', 'probe/v2.user.txt'])
    expect(getTemplate(set, 'probe').parts.user).toBe('v2 [BACKGROUND]')
    expect(getTemplate(set, 'probe', 1).parts.user).toBe('v1 [BACKGROUND]')
    expect(findTemplate(set, 'probe', 3)).toBeUndefined()
    expect(() => getTemplate(set, 'nothing')).toThrow(/no template nothing/)
  })

  it('lists every defect: unreadable files, unused placeholders, undeclared {{tokens}}, carriage returns', () => {
    let err: unknown
    try {
      buildTemplateSet(manifest, (p) => {
        if (p.includes('v2')) throw new Error('ENOENT')
        return 'no token here {{stray}}\r\n'
      })
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(TemplateManifestError)
    expect((err as TemplateManifestError).problems).toEqual([
      'probe@1 (user): carriage return in text (the file must keep LF line ends)',
      'probe@1 (user): {{stray}} is not a declared placeholder',
      'probe@1: placeholder "background" does not occur in any part',
      'probe/v2.user.txt: ENOENT'
    ])
  })

  it('is what the test helper builds from resources/templates', () => {
    const set = loadBuiltInTemplates()
    expect(getTemplate(set, 'match-judge').parts.user).toBe(readTemplateFile('match-judge/v1.user.txt'))
  })
})
