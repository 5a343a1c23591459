import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { curatorSession, type SessionState } from '../../src/main/api/context'
import type { Project } from '../../src/main/store/project'
import { startWebServer, type WebServer } from '../../src/main/web/server'
import { contextFor } from './project'

/** A renderer folder in `dir` holding only an empty page, for web servers whose page is not under test. */
export function stubRendererDir(dir: string): string {
  const renderer = join(dir, 'renderer')
  mkdirSync(renderer)
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>t</title>')
  return renderer
}

/** Two servers of one project, as `assay serve` starts them: one locked to an annotator, one for the curator. */
export interface SessionServers {
  annotator: WebServer
  curator: WebServer
  close(): Promise<void>
}

export async function annotatorAndCuratorServers(project: Project, annotator: { id: number; name: string }, rendererDir: string): Promise<SessionServers> {
  const hub = contextFor(project).hub
  const session: SessionState = { role: 'annotator', annotator, locked: true }
  const served = await startWebServer({ project, hub, session, rendererDir })
  const curator = await startWebServer({ project, hub, session: curatorSession(), rendererDir })
  return {
    annotator: served,
    curator,
    async close() {
      await served.close()
      await curator.close()
    }
  }
}
