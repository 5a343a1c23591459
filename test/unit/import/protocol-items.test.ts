import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { detectFormat, importFile } from '../../../src/main/import'
import { readRecords } from '../../../src/main/import/read-records'
import { jsonl, payloadOf, scratch, type Scratch } from './helpers'

// The imports that make the items of the preprint check, task composition and reference comparison.

let s: Scratch
beforeEach(async () => {
  s = await scratch()
})
afterEach(() => s.dispose())

const paper = { id: 'doi:1', title: 'Drug X clears senescent cells', authors: ['A. Rivera', 'B. Chen'], abstract: 'Drug X clears senescent cells in aged mice.' }
const preprint = (id: string, same?: boolean) => ({ id, title: `Preprint ${id}`, authors: 'A. Rivera; B. Chen', abstract: `Abstract of ${id}.`, ...(same === undefined ? {} : { same_study: same }) })

describe('preprints', () => {
  it('makes one preprint pair per candidate, with the reference answer kept apart from what is shown', async () => {
    const path = s.write('pp.jsonl', jsonl([{ paper, candidates: [preprint('pre-1', true), preprint('pre-2', false)], batch: 'b1' }, { pair_id: 'own', paper, preprint: preprint('pre-3') }]))
    const r = await importFile(s.project, 'preprints', path)
    expect(r.errors).toEqual([])
    expect(r.summary).toEqual({ papers: 1, pairs: 3, same_study: 1, different_study: 1, unlabelled: 1 })
    const first = payloadOf(s.project, 'preprint-pair', 'doi:1~pre-1')
    expect(first).toMatchObject({ paper: { title: paper.title, authors: paper.authors }, preprint: { id: 'pre-1', authors: 'A. Rivera; B. Chen' }, same_study: true, $extra: { batch: 'b1' } })
    expect(first.preprint.same_study).toBeUndefined()
    expect(payloadOf(s.project, 'preprint-pair', 'doi:1~pre-2').same_study).toBe(false)
    expect(payloadOf(s.project, 'preprint-pair', 'own').same_study).toBeUndefined()
  })

  it('reads the flat CSV form, semicolons inside quoted cells included', async () => {
    const path = s.write(
      'pp.csv',
      'pair_id,paper_id,paper_title,paper_authors,paper_abstract,preprint_title,preprint_authors,preprint_abstract,same_study\n' +
        'p1,d1,Title,"A. Rivera; B. Chen",An abstract.,Pre,"A. Rivera; B. Chen","Pre abstract, with a comma.",yes\n'
    )
    const r = await importFile(s.project, 'preprints', path)
    expect(r.errors).toEqual([])
    expect(payloadOf(s.project, 'preprint-pair', 'p1')).toMatchObject({ paper: { id: 'd1', title: 'Title', authors: 'A. Rivera; B. Chen' }, preprint: { abstract: 'Pre abstract, with a comma.' }, same_study: true })
  })

  it('refuses the whole file with line and field for a missing abstract, a bad label or a missing id', async () => {
    const path = s.write(
      'bad.jsonl',
      jsonl([
        { paper, candidates: [preprint('ok', true)] },
        { paper: { ...paper, abstract: '' }, preprint: preprint('x') },
        { paper, candidates: [{ ...preprint('y'), same_study: 'maybe' }] },
        { paper: { title: 'T', abstract: 'A' }, preprint: preprint('z') }
      ])
    )
    const r = await importFile(s.project, 'preprints', path)
    expect(r.items).toBe(0)
    expect(r.errors).toEqual([
      { file: path, line: 2, field: 'paper.abstract', message: 'missing abstract of the paper' },
      { file: path, line: 3, field: 'candidates[0].same_study', message: 'same_study must be true or false (yes/no, 1/0)' },
      { file: path, line: 4, field: 'pair_id', message: 'missing pair_id (or an id of the paper: id, doi, pmid, paper_id)' }
    ])
    expect(s.count()).toBe(0)
  })
})

describe('abstracts', () => {
  it('makes a paper per row, a structured abstract joined by its sections', async () => {
    const path = s.write('a.jsonl', jsonl([{ pmid: 39000001, title: 'T1', journal: 'Nature Aging', abstract: [{ label: 'BACKGROUND', text: 'B.' }, { label: 'RESULTS', text: 'R.' }], year: 2024 }, { pmid: '2', title: 'T2', abstract: 'Plain.' }]))
    const r = await importFile(s.project, 'abstracts', path)
    expect(r.errors).toEqual([])
    expect(payloadOf(s.project, 'paper', '39000001')).toEqual({ paper_id: '39000001', title: 'T1', journal: 'Nature Aging', abstract: 'BACKGROUND: B.\n\nRESULTS: R.', year: 2024 })
    expect(payloadOf(s.project, 'paper', '2')).toMatchObject({ journal: '', abstract: 'Plain.' })
  })

  it('refuses rows without id, title or abstract, and XML files with what to do instead', async () => {
    const path = s.write('a.csv', 'pmid,title,journal,abstract\n1,T,J,\n,T,J,A\n')
    const r = await importFile(s.project, 'abstracts', path)
    expect(r.errors.map((e) => [e.line, e.field])).toEqual([
      [2, 'abstract'],
      [3, 'pmid']
    ])
    const xml = s.write('pubmed.xml', '<PubmedArticleSet></PubmedArticleSet>')
    const x = await importFile(s.project, 'abstracts', xml)
    expect(x.errors[0]!.message).toMatch(/XML files are not read.*JSON, JSONL or CSV/)
    expect(s.count()).toBe(0)
  })
})

describe('references', () => {
  it('reads nested and flat forms; key points as lists or semicolon-separated', async () => {
    const path = s.write(
      'r.csv',
      'pair_id,model_a,finding_a,key_points_a,finding_b,key_points_b\nr1,gpt-5,F A.,"x; y",F B.,"[""x"", ""z""]"\n'
    )
    expect((await importFile(s.project, 'references', path)).errors).toEqual([])
    expect(payloadOf(s.project, 'reference-pair', 'r1')).toEqual({ reference_a: { finding: 'F A.', key_points: ['x', 'y'] }, reference_b: { finding: 'F B.', key_points: ['x', 'z'] }, $extra: { model_a: 'gpt-5' } })
    const nested = s.write('r.jsonl', jsonl([{ task_id: 't2', reference_a: { finding: 'A.', key_points: ['k'] }, reference_b: { finding: 'B.' } }]))
    expect((await importFile(s.project, 'references', nested)).errors).toEqual([])
    expect(payloadOf(s.project, 'reference-pair', 't2')).toMatchObject({ task_id: 't2', reference_b: { finding: 'B.', key_points: [] } })
  })

  it('names the missing finding by line and field', async () => {
    const path = s.write('r.jsonl', jsonl([{ pair_id: 'r1', reference_a: { finding: 'A.' }, reference_b: { key_points: ['k'] } }, { pair_id: 'r2', finding_a: 'A.' }]))
    const r = await importFile(s.project, 'references', path)
    expect(r.errors).toEqual([
      { file: path, line: 1, field: 'reference_b.finding', message: "missing reader B's finding" },
      { file: path, line: 2, field: 'finding_b', message: "missing reader B's finding" }
    ])
  })
})

describe('detection and reading', () => {
  it('tells the three formats apart from the others', () => {
    const line = (o: object) => [JSON.stringify(o)]
    expect(detectFormat('x.jsonl', line({ paper, candidates: [] }))).toBe('preprints')
    expect(detectFormat('x.jsonl', line({ pair_id: 'p', paper, preprint: {} }))).toBe('preprints')
    expect(detectFormat('x.csv', ['pair_id,paper_title,paper_abstract,preprint_title,preprint_abstract'])).toBe('preprints')
    expect(detectFormat('x.jsonl', line({ pmid: '1', title: 't', journal: 'j', abstract: 'a' }))).toBe('abstracts')
    expect(detectFormat('x.csv', ['pair_id,finding_a,key_points_a,finding_b,key_points_b'])).toBe('references')
    expect(detectFormat('x.jsonl', line({ task_id: 'T', background: 'b', question: 'q', finding: 'f' }))).toBe('tasks')
    expect(detectFormat('x.jsonl', line({ task_id: 'T', stages: [], candidates: [] }))).toBe('omega-point')
  })

  it('guesses a CSV delimiter from the header, not from semicolons inside quoted cells', () => {
    const r = readRecords('f.csv', '/x/f.csv', 'id,authors,note\n1,"A; B; C","x; y"\n')
    expect(r.errors).toEqual([])
    expect(r.records[0]!.value).toEqual({ id: '1', authors: 'A; B; C', note: 'x; y' })
    expect(readRecords('f.csv', '/x/f.csv', 'id;name\n1;x\n').records[0]!.value).toEqual({ id: '1', name: 'x' })
  })
})
