import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WebServer } from '../../../src/main/web/server'
import { ensureAnnotator } from '../../../src/main/store/annotators'
import type { Project } from '../../../src/main/store/project'
import { smallProject } from '../../support/project'
import { tempDir } from '../../support/tmp'
import { annotatorAndCuratorServers, stubRendererDir, type SessionServers } from '../../support/web'

// What `project.info` tells a browser session locked to one annotator, asked over the real HTTP bridge.

const tmp = tempDir()
let project: Project
let annotatorServer: WebServer
let curatorServer: WebServer
let servers: SessionServers

beforeAll(async () => {
  project = await smallProject(tmp.file('p.assay'))
  const ada = ensureAnnotator(project, 'Dr. Ada')
  ensureAnnotator(project, 'Dr. Grace')
  servers = await annotatorAndCuratorServers(project, { id: ada.id, name: ada.name }, stubRendererDir(tmp.dir))
  annotatorServer = servers.annotator
  curatorServer = servers.curator
})
afterAll(async () => {
  await servers.close()
  project.close()
  tmp.cleanup()
})

async function info(server: WebServer): Promise<Record<string, unknown>> {
  const res = await fetch(`http://127.0.0.1:${server.port}/api/project.info`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: '{}'
  })
  expect(res.status).toBe(200)
  const body = (await res.json()) as { ok: boolean; value: Record<string, unknown> }
  expect(body.ok).toBe(true)
  return body.value
}

describe('project.info for an annotator session', () => {
  it('carries no file path, seed or project-wide counts of other people’s work', async () => {
    const shown = await info(annotatorServer)
    expect(shown.name).toBeTypeOf('string')
    for (const hidden of ['path', 'seed', 'annotators', 'annotations', 'judgements', 'runs', 'exposures']) {
      expect(shown, hidden).not.toHaveProperty(hidden)
    }
    expect(shown.counts).toEqual([])
    expect(JSON.stringify(shown)).not.toContain(tmp.file('p.assay'))
  })

  it('still tells a curator session everything', async () => {
    const shown = await info(curatorServer)
    expect(shown.path).toBe(project.info().path)
    expect(shown.annotators).toBe(2)
    for (const key of ['seed', 'annotations', 'judgements', 'runs', 'exposures']) expect(shown, key).toHaveProperty(key)
  })
})
