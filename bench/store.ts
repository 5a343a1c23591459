import Database from 'better-sqlite3'
import { Project } from '../src/main/store/project'
import { insertItems, listItems, type NewItem } from '../src/main/store/items'
import { median, time, type BenchFigures } from './measure'

function makeItems(n: number, prefix: string): NewItem[] {
  return Array.from({ length: n }, (_, i) => ({
    kind: 'idea' as const,
    externalId: `${prefix}-${i}`,
    set: i % 2 ? 'even' : 'odd',
    split: 'none' as const,
    payload: { idea: `An idea about topic ${i % 97} with a measurable prediction number ${i}.`, keywords: ['ageing', 'proteostasis'] }
  }))
}

/**
 * Store insert vs a bare prepared-insert loop on the same rows in one transaction: into the same schema (what the
 * store's own code costs), and into a minimal table (what the schema's checks and indexes cost on top).
 */
export async function benchStore(dir: string, n = 100_000): Promise<BenchFigures> {
  const items = makeItems(n, 'x')
  const storeMs: number[] = []
  const bareMs: number[] = []
  const floorMs: number[] = []
  for (let round = 0; round < 3; round++) {
    const project = await Project.create(`${dir}/store-${round}.assay`)
    storeMs.push(time(() => project.write((db) => insertItems(db, items))))
    project.close()

    // Baseline 1: a bare prepared-insert loop into the same table (same schema, same row values).
    const sameSchema = await Project.create(`${dir}/bare-schema-${round}.assay`)
    const raw = sameSchema.db
    const stmt = raw.prepare(`INSERT INTO items (kind, external_id, set_name, split, title, search_text, payload, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
    bareMs.push(
      time(() =>
        raw.transaction(() => {
          for (const it of items) stmt.run(it.kind, it.externalId, it.set, it.split, '', '', JSON.stringify(it.payload), '2026-01-01T00:00:00.000Z')
        })()
      )
    )
    sameSchema.close()

    // Baseline 2: the floor — a minimal table with no checks, defaults or secondary indexes.
    const bare = new Database(`${dir}/bare-${round}.db`)
    bare.pragma('journal_mode = WAL')
    bare.pragma('synchronous = FULL')
    bare.exec(`CREATE TABLE items (id INTEGER PRIMARY KEY, kind TEXT, external_id TEXT, set_name TEXT, split TEXT, payload TEXT, UNIQUE(kind, external_id))`)
    const minimal = bare.prepare(`INSERT INTO items (kind, external_id, set_name, split, payload) VALUES (?, ?, ?, ?, ?)`)
    floorMs.push(
      time(() =>
        bare.transaction(() => {
          for (const it of items) minimal.run(it.kind, it.externalId, it.set, it.split, JSON.stringify(it.payload))
        })()
      )
    )
    bare.close()
  }

  const openMs: number[] = []
  const firstPageMs: number[] = []
  for (let round = 0; round < 5; round++) {
    let project!: Project
    openMs.push(await timeAsync(async () => (project = await Project.open(`${dir}/store-0.assay`))))
    firstPageMs.push(time(() => listItems(project.db, { offset: 0, limit: 100 })))
    project.close()
  }
  const filteredMs = await (async () => {
    const project = await Project.open(`${dir}/store-0.assay`)
    const ms = time(() => listItems(project.db, { offset: 0, limit: 100, set: 'even', text: 'topic 42' }))
    project.close()
    return ms
  })()
  return {
    items: n,
    store_insert_ms: median(storeMs),
    bare_insert_ms: median(bareMs),
    store_vs_bare_ratio: median(storeMs) / median(bareMs),
    target_ratio: 1.5,
    minimal_table_insert_ms: median(floorMs),
    store_vs_minimal_table_ratio: median(storeMs) / median(floorMs),
    open_project_ms: median(openMs),
    first_page_ms: median(firstPageMs),
    filtered_search_page_ms: filteredMs
  }
}

async function timeAsync(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now()
  await fn()
  return performance.now() - t
}
