import { readFileSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeProviders, type FakeProviders, type Prompt } from '../../fakes'
import { runCli } from '../../support/cli'
import { tempDir } from '../../support/tmp'
import { Project } from '../../../src/main/store/project'
import { listProbes, type ProbeRecord } from '../../../src/main/store/probes'
import { KEYS } from '../runner/helpers'

// Probes from the demo through the command line: deterministic formula-error probes, model-made inflated-framing
// probes against the loopback fake, checks imported as probe-check answers, a judge run on the probe pairs, and the
// report's Probes section.

const tmp = tempDir()
let fake: FakeProviders
let path: string
const saved = { ...process.env }
/** Edited equations of the formula probes: a judge that spots them prefers the other side. */
let planted: string[] = []
const MARK = 'This paradigm-shifting, first-ever study will transform the field.'

function proposalOf(user: string): string {
  return /<proposal>\n([\s\S]*)\n<\/proposal>/.exec(user)?.[1] ?? ''
}

function responder(p: Prompt): string {
  if (p.user.includes('=== PROBE ===')) return '{"flaw_present":false,"only_change":false,"severity":"none","note":"model check"}'
  if (p.user.includes('<proposal>')) {
    const original = proposalOf(p.user)
    return JSON.stringify({ probe: original.replace(/\n## /, `\n${MARK}\n\n## `), change: 'Added an overclaiming sentence before the second heading.' })
  }
  const a = /=== PROPOSAL A ===([\s\S]*?)=== PROPOSAL B ===/.exec(p.user)?.[1] ?? ''
  const b = p.user.slice(p.user.indexOf('=== PROPOSAL B ==='))
  const aFlawed = planted.some((e) => a.includes(e))
  const bFlawed = planted.some((e) => b.includes(e))
  // The framing-swayed judge picks the inflated side; the careful one the side without the formula error.
  const verdict = a.includes(MARK) ? 'A_better' : b.includes(MARK) ? 'B_better' : aFlawed ? 'B_better' : bFlawed ? 'A_better' : 'A_better'
  return `Checked.\n\`\`\`json\n{"analysis":"ok","verdict":"${verdict}","fatal_flaws":[]}\n\`\`\``
}

async function probes(): Promise<ProbeRecord[]> {
  const project = await Project.open(path, { readonly: true })
  try {
    return listProbes(project.db)
  } finally {
    project.close()
  }
}

beforeAll(async () => {
  fake = await startFakeProviders({ apiKeys: { openai: KEYS.openai }, responder })
  path = tmp.file('probes.assay')
  expect((await runCli('new', path, '--demo')).code).toBe(0)
  process.env.OPENAI_API_KEY = KEYS.openai
})
afterAll(async () => {
  process.env = { ...saved }
  await fake.close()
  tmp.cleanup()
})

const model = () => ['--provider', 'openai', '--model', 'gpt-4.1-mini', '--base-url', fake.url('openai')]

describe('probes through the command line', () => {
  it('makes seeded formula-error probes, each with its exact edit, and adds none on a second run', async () => {
    const r = await runCli('probe', 'make', path, '--kind', 'formula-error', '--from', 'demo-pairs', '--n', '4', '--seed', '11', '--json')
    expect(r.code, r.stderr).toBe(0)
    const made = JSON.parse(r.stdout) as { made: Array<{ pairId: string }> }
    expect(made.made).toHaveLength(4)
    const list = await probes()
    expect(list.map((p) => p.externalId).sort()).toEqual(made.made.map((m) => m.pairId).sort())
    for (const p of list) {
      expect(p).toMatchObject({ kind: 'formula-error', kindVersion: 1, method: 'deterministic', set: 'probes' })
      expect(p.family).toBe(`${p.originalExternalId}:${p.provenance.original.side}`)
      expect(p.provenance.edit?.method).toBe('formula-edit-v1')
      expect(p.provenance.expected).toMatchObject({ pairwise: 'original_better', flaw: { type: 'unsound_method', evidence: p.provenance.edit!.equation.after } })
    }
    planted = list.map((p) => p.provenance.edit!.equation.after)
    const again = await runCli('probe', 'make', path, '--kind', 'formula-error', '--from', 'demo-pairs', '--n', '4', '--seed', '11', '--json')
    expect(JSON.parse(again.stdout).made).toHaveLength(0)
    expect(await probes()).toHaveLength(4)
  })

  it('records no probe run that cannot start: no key, or not one answer', async () => {
    delete process.env.OPENAI_API_KEY
    const noKey = await runCli('probe', 'make', path, '--kind', 'inflated-framing', '--from', 'demo-pairs', '--mode', 'model', '--n', '1', ...model())
    expect(noKey.code).not.toBe(0)
    expect(noKey.stderr).toContain('No API key')
    process.env.OPENAI_API_KEY = 'sk-wrong-key-0000000000000000'
    const refused = await runCli('probe', 'make', path, '--kind', 'inflated-framing', '--from', 'demo-pairs', '--mode', 'model', '--n', '1', ...model())
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/no run was recorded|stopped/)
    process.env.OPENAI_API_KEY = KEYS.openai
    const project = await Project.open(path, { readonly: true })
    const runs = project.db.prepare(`SELECT count(*) AS n FROM runs`).get() as { n: number }
    project.close()
    expect(runs.n).toBe(0)
    fake.reset()
    fake.setScript({ responder })
  })

  it('estimates a model probe run without sending, then makes inflated-framing probes through the runner', async () => {
    const dry = await runCli('probe', 'make', path, '--kind', 'inflated-framing', '--from', 'demo-pairs', '--mode', 'model', '--origin', 'human', '--n', '3', ...model(), '--dry-run', '--json')
    expect(dry.code, dry.stderr).toBe(0)
    expect(JSON.parse(dry.stdout)).toMatchObject({ runId: null, estimate: { calls: 3, cached: 0 } })
    expect(fake.requests).toHaveLength(0)

    const r = await runCli('probe', 'make', path, '--kind', 'inflated-framing', '--from', 'demo-pairs', '--mode', 'model', '--origin', 'human', '--n', '3', ...model(), '--json')
    expect(r.code, r.stderr).toBe(0)
    const out = JSON.parse(r.stdout) as { runId: number; made: unknown[] }
    expect(out.made).toHaveLength(3)
    expect(fake.requests).toHaveLength(3)
    const framing = (await probes()).filter((p) => p.kind === 'inflated-framing')
    expect(framing).toHaveLength(3)
    for (const p of framing) {
      expect(p.provenance.made_by).toMatchObject({ method: 'model', template_id: 'probe-inflated-framing', template_version: 1, model: 'gpt-4.1-mini', run_id: out.runId })
      expect(p.provenance.diff.filter((d) => d.op === 'added').map((d) => d.text).join('')).toContain('paradigm-shifting')
      expect(p.provenance.expected).toEqual({ pairwise: 'no_preference', flaw: null })
    }
    // The probe run is listed with the others.
    const runs = await runCli('runs', 'list', path, '--json')
    expect(runs.code, runs.stderr).toBe(0)
    expect(runs.stdout).toContain('probe-inflated-framing')
    // Asked again: the probes exist, nothing is sent.
    const again = await runCli('probe', 'make', path, '--kind', 'inflated-framing', '--from', 'demo-pairs', '--mode', 'model', '--origin', 'human', '--n', '3', ...model(), '--json')
    expect(again.code, again.stderr).toBe(0)
    expect(fake.requests).toHaveLength(3)
  })

  it('counts only verified probes in the report, and the judge’s detection and framing preference', async () => {
    const list = await probes()
    const rejected = list.find((p) => p.kind === 'formula-error')!
    const rows = list.map((p) => ({
      item: p.externalId,
      instrument: 'probe-check',
      source: 'Demo Expert 1',
      source_kind: 'human',
      judgement: p === rejected ? { flaw_present: false, only_change: true, severity: 'none', note: 'no effect on the result' } : { flaw_present: true, only_change: true, severity: 'major', note: '' }
    }))
    const file = tmp.file('checks.jsonl')
    writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n'))
    const imported = await runCli('import', path, 'labels', file)
    expect(imported.code, imported.stderr).toBe(0)
    const listed = await runCli('probe', 'list', path)
    expect(listed.stdout).toContain('rejected')
    expect(listed.stdout).toContain('verified by Demo Expert 1')

    const judged = await runCli('judge', path, '--instrument', 'pairwise-preference', ...model(), '--set', 'probes', '--json')
    expect(judged.code, judged.stderr).toBe(0)
    const report = await runCli('report', path, '--instrument', 'pairwise-preference', '--json')
    expect(report.code, report.stderr).toBe(0)
    const s = JSON.parse(report.stdout).probes
    expect(s).toMatchObject({ n_probes: 7, n_verified: 6, n_rejected: 1, n_unchecked: 0, rules: { 'formula-error': 'original_better', 'inflated-framing': 'no_preference' } })
    const run = s.detection.find((d: { role: string }) => d.role === 'judge')
    expect(run).toMatchObject({ kind: 'formula-error', n_probes: 3, detected: 3, rate: 1 })
    expect(run.wilson.low).toBeGreaterThan(0.4)
    expect(s.framing_preference.find((d: { role: string }) => d.role === 'judge')).toMatchObject({ kind: 'inflated-framing', n_probes: 3, probe_wins: 3, rate: 1 })

    // A model can be asked the same check; its answers never verify or reject a probe.
    const checked = await runCli('judge', path, '--instrument', 'probe-check', ...model(), '--set', 'probes', '--json')
    expect(checked.code, checked.stderr).toBe(0)
    expect(JSON.parse(checked.stdout)).toMatchObject({ counts: { ok: 7 } })
    const statuses = (JSON.parse((await runCli('probe', 'list', path, '--json')).stdout) as Array<{ verification: { status: string } }>).map((p) => p.verification.status)
    expect(statuses.filter((x) => x === 'verified')).toHaveLength(6)

    const html = tmp.file('report.html')
    expect((await runCli('report', path, '--instrument', 'pairwise-preference', '--html', html)).code).toBe(0)
    const page = readFileSync(html, 'utf8')
    expect(page).toContain('<details class="section" id="probes">')
    expect(page).toContain('7 probes in scope: 6 verified, 1 rejected by their check, 0 not yet checked')
    expect(page).toContain('Framing preference')
  })

  it('exports probes in the pairs format with their provenance, and imports them into another project', async () => {
    const out = tmp.file('probes.jsonl')
    const r = await runCli('probe', 'export', path, '--out', out)
    expect(r.code, r.stderr).toBe(0)
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    const probeLines = lines.filter((l) => l.probe_of)
    expect(probeLines).toHaveLength(7)
    // Refused without --force; the file is left as it was.
    expect((await runCli('probe', 'export', path, '--out', out)).code).not.toBe(0)

    const other = tmp.file('other.assay')
    expect((await runCli('new', other)).code).toBe(0)
    const imported = await runCli('import', other, 'pairs', out, '--set', 'from-elsewhere')
    expect(imported.code, imported.stderr).toBe(0)
    const project = await Project.open(other, { readonly: true })
    const again = listProbes(project.db)
    project.close()
    const mine = await probes()
    expect(again.map((p) => [p.externalId, p.provenance])).toEqual(mine.map((p) => [p.externalId, p.provenance]))

    // A provenance whose diff does not rebuild the pair is refused, by line and field, and nothing is written.
    const bad = lines.map((l) => (l === probeLines[0] ? { ...l, pair_id: 'tampered', probe_of: { ...(l.probe_of as object), diff: [] } } : { ...l, pair_id: `${String(l.pair_id)}-x` }))
    const badFile = tmp.file('bad.jsonl')
    writeFileSync(badFile, bad.map((l) => JSON.stringify(l)).join('\n'))
    const refused = await runCli('import', other, 'pairs', badFile)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/:\d+: probe_of\.diff: the diff does not rebuild the original/)

    // Answers on probes carry the provenance in the labels export.
    const labels = tmp.file('labels.jsonl')
    expect((await runCli('export', path, 'labels', '--out', labels, '--instrument', 'probe-check')).code).toBe(0)
    const rows = readFileSync(labels, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { annotation_id?: string; probe_of?: { family: string } })
      .filter((row) => row.annotation_id)
    expect(rows).toHaveLength(7)
    expect(rows.every((row) => typeof row.probe_of?.family === 'string')).toBe(true)
  })

  it('imports a probe written by hand: provenance completed from its kind, the diff computed', async () => {
    const project = await Project.open(path, { readonly: true })
    const original = JSON.parse((project.db.prepare(`SELECT payload FROM items WHERE external_id = 'demo-001'`).get() as { payload: string }).payload)
    project.close()
    const probeText = `${original.b.markdown}\n\nAs shown by Okafor and Lindqvist (2031), the effect is universal.`
    const row = {
      pair_id: 'demo-001-hand',
      topic: original.topic,
      a: { markdown: original.b.markdown, origin: original.b.origin },
      b: { markdown: probeText, origin: original.b.origin },
      probe: 'citation-fabrication',
      probe_of: { original: { item: 'demo-001', side: 'b' }, kind: 'citation-fabrication', probe_side: 'b', made_by: { method: 'hand', author: 'Curator' } }
    }
    const file = tmp.file('hand.jsonl')
    writeFileSync(file, JSON.stringify(row))
    const r = await runCli('import', path, 'pairs', file, '--set', 'hand-probes')
    expect(r.code, r.stderr).toBe(0)
    const hand = (await probes()).find((p) => p.externalId === 'demo-001-hand')!
    expect(hand).toMatchObject({ kind: 'citation-fabrication', kindVersion: 1, method: 'hand', family: 'demo-001:b', set: 'hand-probes' })
    expect(hand.provenance.expected).toEqual({ pairwise: 'original_better', flaw: { type: 'hallucinated_content', severity: 'major', evidence: null } })
    expect(hand.provenance.diff.filter((d) => d.op === 'added').map((d) => d.text).join('')).toContain('Okafor and Lindqvist (2031)')

    writeFileSync(file, JSON.stringify({ ...row, pair_id: 'demo-001-hand-2', probe_of: { ...row.probe_of, kind: 'no-such-kind' } }))
    const refused = await runCli('import', path, 'pairs', file)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/:1: probe_of\.kind: Unknown probe kind "no-such-kind"/)
  })

  it('defines a probe kind of the project: listed as defined, unchanged when given again, a new version when changed', async () => {
    const define = (instruction: string) =>
      runCli('probe', 'kind', path, 'sample-size-inflation', '--title', 'Sample size inflation', '--instruction', instruction, '--flaw', 'unsound_method', '--severity', 'major')
    const first = await define('Multiply the stated sample size tenfold; change nothing else.')
    expect(first.code, first.stderr).toBe(0)
    expect(first.stdout).toContain('Defined sample-size-inflation@1')
    expect((await define('Multiply the stated sample size tenfold; change nothing else.')).stdout).toContain('sample-size-inflation@1 is unchanged')
    expect((await define('Multiply the stated sample size a hundredfold; change nothing else.')).stdout).toContain('Defined sample-size-inflation@2')
    const kinds = JSON.parse((await runCli('probe', 'kinds', path, '--json')).stdout) as Array<{ name: string; version: number; builtin: boolean; flaw: unknown }>
    expect(kinds.find((k) => k.name === 'sample-size-inflation')).toMatchObject({ version: 2, builtin: false, flaw: { type: 'unsound_method', severity: 'major' } })
    expect(kinds.find((k) => k.name === 'formula-error')).toMatchObject({ builtin: true })

    const bad = await runCli('probe', 'kind', path, 'Bad Name', '--title', 't', '--instruction', 'i')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('a probe kind is lower-case letters, digits and hyphens')
  })

  it('refuses to make probes in an annotator packet, and an edit the formula editor does not know', async () => {
    const packet = tmp.file('packet.assay')
    expect((await runCli('assign', path, '--annotators', 'Demo Expert 1', '--overlap', '1', '--instrument', 'pairwise-preference', '--set', 'demo-pairs')).code).toBe(0)
    const exported = await runCli('packet', 'export', path, '--annotator', 'Demo Expert 1', '--out', packet)
    expect(exported.code, exported.stderr).toBe(0)
    const inPacket = await runCli('probe', 'make', packet, '--kind', 'formula-error', '--from', 'demo-pairs', '--n', '1')
    expect(inPacket.code).not.toBe(0)
    expect(inPacket.stderr).toContain('is an annotator packet: make probes in the curator project')

    const unknownEdit = await runCli('probe', 'make', path, '--kind', 'formula-error', '--from', 'demo-pairs', '--edit', 'rotate')
    expect(unknownEdit.code).toBe(2)
    expect(unknownEdit.stderr).toContain('Unknown formula edit "rotate"')

    // The model that writes probes is a judge: its endpoint carries no key, and its provider is one Assay speaks.
    const keyed = await runCli('probe', 'make', path, '--kind', 'inflated-framing', '--from', 'demo-pairs', '--mode', 'model', '--provider', 'openai', '--model', 'm', '--base-url', 'http://user:sk-secret@127.0.0.1:9/v1')
    expect(keyed.code).toBe(2)
    expect(keyed.stderr).toContain('a base URL carries no credentials or query string')
    const unknownProvider = await runCli('probe', 'make', path, '--kind', 'inflated-framing', '--from', 'demo-pairs', '--mode', 'model', '--provider', 'acme', '--model', 'm')
    expect(unknownProvider.code).not.toBe(0)
    expect(unknownProvider.stderr).toContain('expected one of openai, anthropic, google, openai-compatible')
  })
})
