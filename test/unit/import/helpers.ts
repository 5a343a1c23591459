import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Project } from '../../../src/main/store/project'

/** A scratch folder with a fresh project; files are written relative to it. */
export interface Scratch {
  dir: string
  project: Project
  write(name: string, content: string): string
  count(sql?: string): number
  dispose(): void
}

export async function scratch(): Promise<Scratch> {
  const dir = mkdtempSync(join(tmpdir(), 'assay-import-'))
  const project = await Project.create(join(dir, 'test.assay'))
  return {
    dir,
    project,
    write(name, content) {
      const path = join(dir, name)
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(path, content)
      return path
    },
    count(sql = 'SELECT count(*) AS n FROM items') {
      return (project.db.prepare(sql).get() as { n: number }).n
    },
    dispose() {
      project.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

export function jsonl(rows: unknown[]): string {
  return rows.map((r) => JSON.stringify(r)).join('\n') + '\n'
}

export function payloadOf(project: Project, kind: string, externalId: string): Record<string, any> {
  const row = project.db.prepare(`SELECT payload FROM items WHERE kind = ? AND external_id = ?`).get(kind, externalId) as { payload: string } | undefined
  if (!row) throw new Error(`no ${kind} ${externalId}`)
  return JSON.parse(row.payload)
}
