import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../../support/cli'
import { serveProject } from '../../support/serve'
import { repoRoot, tempDir } from '../../support/tmp'

// A packet of a declared instrument is answered where the curator project is not: the annotator's process knows
// nothing of the project, so the packet carries the declaration its assignments are answered with.

const tmp = tempDir()
afterAll(() => tmp.cleanup())

const DECLARATION = join(repoRoot, 'test', 'fixtures', 'instruments', 'idea-study.yaml')

async function api(url: string, op: string, input: unknown): Promise<{ ok: boolean; value?: any; error?: { message: string } }> {
  const u = new URL(url)
  const res = await fetch(`${u.origin}/api/${op}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${u.searchParams.get('token')}`, 'content-type': 'application/json' },
    body: JSON.stringify(input)
  })
  return (await res.json()) as { ok: boolean; value?: any; error?: { message: string } }
}

describe('a packet of a declared instrument', () => {
  it('is answered in its own process with the declared form and merges back under the same version', async () => {
    const path = tmp.file('study.assay')
    expect((await runCli('new', path)).code).toBe(0)
    expect((await runCli('instrument', 'add', path, DECLARATION)).code).toBe(0)
    writeFileSync(tmp.file('ideas.csv'), 'key,name,body\ni1,Cold atoms,Trap atoms in a lattice.\ni2,Warm ions,Heat trapped ions.\n')
    expect((await runCli('import', path, 'generic', tmp.file('ideas.csv'), '--as', 'texts', '--map', 'id=key,text=body,title=name', '--set', 'study')).code).toBe(0)
    expect((await runCli('annotators', 'add', path, 'Ada')).code).toBe(0)
    expect((await runCli('assign', path, '--instrument', 'idea-study', '--annotators', 'Ada', '--overlap', '1')).code).toBe(0)
    const packet = tmp.file('ada.assay')
    const exported = await runCli('packet', 'export', path, '--annotator', 'Ada', '--out', packet)
    expect(exported.code, exported.stderr).toBe(0)

    // A later version in the project does not change what the packet asks.
    const changed = readFileSync(DECLARATION, 'utf8').replace('title: Research idea review', 'title: Research idea review, second form')
    writeFileSync(tmp.file('v2.yaml'), changed)
    expect((await runCli('instrument', 'add', path, tmp.file('v2.yaml'))).stdout).toContain('version 2')

    const served = await serveProject(packet)
    try {
      const summary = await api(served.url, 'queue.summary', {})
      expect(summary.value.queues).toEqual([expect.objectContaining({ instrument_id: 'idea-study', title: 'Research idea review', total: 2 })])
      const queue = await api(served.url, 'queue.list', { instrument: 'idea-study' })
      const first = queue.value.rows[0].assignmentId as number
      const item = await api(served.url, 'queue.item', { assignmentId: first })
      expect(item.ok, item.error?.message).toBe(true)
      expect(item.value).toMatchObject({ instrument: 'idea-study', instrumentVersion: 1 })
      // The declared checks hold in the packet: a score off the scale is refused.
      const off = await api(served.url, 'annotations.submit', { assignmentId: first, judgement: { novelty: 11, excitement: 5, feasibility: 5, verdict: 'accept' }, activeMs: 10 })
      expect(off.ok).toBe(false)
      const ok = await api(served.url, 'annotations.submit', { assignmentId: first, judgement: { novelty: 8, excitement: 7, feasibility: 6, verdict: 'accept', rationale: 'Clear.' }, activeMs: 10 })
      expect(ok.ok, ok.error?.message).toBe(true)
    } finally {
      await served.stop()
    }

    const merged = await runCli('packet', 'merge', path, packet, '--json')
    expect(merged.code, merged.stderr).toBe(0)
    const labels = tmp.file('labels.jsonl')
    expect((await runCli('export', path, 'labels', '--out', labels, '--instrument', 'idea-study')).code).toBe(0)
    const rows = readFileSync(labels, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>).filter((r) => r.annotation_id)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ instrument: 'idea-study', instrument_version: 1, judgement: { novelty: 8, verdict: 'accept' } })
  }, 60_000)
})
