import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { importFile } from '../src/main/import'
import { exportData } from '../src/main/export'
import { Project } from '../src/main/store/project'
import { median, type BenchFigures } from './measure'

/**
 * Importing a 100,000-row JSONL (all-or-nothing: parse, validate, one transaction) vs a bare better-sqlite3 loop that
 * parses the same lines and inserts the same rows into the same table in one transaction; then a labels file of
 * 100,000 answers on those items, imported and exported again.
 */
export async function benchImport(dir: string, rows = 100_000): Promise<BenchFigures> {
  const itemsFile = join(dir, 'questions.jsonl')
  const lines: string[] = []
  for (let i = 0; i < rows; i++) {
    lines.push(
      JSON.stringify({
        question_id: `q${i}`,
        question: `Does intervention ${i % 211} extend median lifespan in model organism ${i % 7}?`,
        background: `Background ${i}: earlier studies measured survival under dietary restriction and found a dose response.`,
        reference_answer: `Answer ${i}`
      })
    )
  }
  writeFileSync(itemsFile, `${lines.join('\n')}\n`)

  const importMs: number[] = []
  const bareMs: number[] = []
  for (let round = 0; round < 3; round++) {
    const project = await Project.create(join(dir, `import-${round}.assay`))
    const t = performance.now()
    const report = await importFile(project, 'questions', itemsFile, { set: 'bench' })
    importMs.push(performance.now() - t)
    if (report.errors.length || report.items !== rows) throw new Error(`import failed: ${JSON.stringify(report.errors.slice(0, 3))}`)
    project.close()

    const bare = await Project.create(join(dir, `bare-${round}.assay`))
    const insert = bare.db.prepare(
      `INSERT INTO items (kind, external_id, set_name, split, title, search_text, payload, created_at) VALUES ('research-question', ?, 'bench', 'none', '', '', ?, ?)`
    )
    const t2 = performance.now()
    const text = readFileSync(itemsFile, 'utf8')
    bare.db.transaction(() => {
      const now = new Date().toISOString()
      for (const line of text.split('\n')) {
        if (!line) continue
        const v = JSON.parse(line) as { question_id: string }
        insert.run(v.question_id, line, now)
      }
    })()
    bareMs.push(performance.now() - t2)
    bare.close()
  }

  // Labels: one cue rating per item from one imported source, then the same rows exported.
  const labelsFile = join(dir, 'labels.jsonl')
  const labelLines: string[] = []
  for (let i = 0; i < rows; i++) {
    labelLines.push(
      JSON.stringify({
        item: `q${i}`,
        instrument: 'cue-rating',
        source: 'judge-x',
        source_kind: 'model',
        judgement: { score: i % 3, input_score: i % 3, alternative_score: 0, cue_excerpt: '', rationale: 'r', hidden: 'the finding' }
      })
    )
  }
  writeFileSync(labelsFile, `${labelLines.join('\n')}\n`)
  const project = await Project.open(join(dir, 'import-0.assay'))
  let t = performance.now()
  const labels = await importFile(project, 'labels', labelsFile)
  const labelsImportMs = performance.now() - t
  if (labels.errors.length) throw new Error(`labels import failed: ${JSON.stringify(labels.errors.slice(0, 3))}`)
  t = performance.now()
  const exported = exportData(project, 'labels', { out: join(dir, 'labels-out.jsonl') })
  const exportMs = performance.now() - t
  project.close()

  return {
    rows,
    import_jsonl_ms: median(importMs),
    bare_parse_and_insert_ms: median(bareMs),
    import_vs_bare_ratio: median(importMs) / median(bareMs),
    target_ratio: 2,
    labels_import_ms: labelsImportMs,
    labels_export_ms: exportMs,
    labels_exported_rows: exported.rows
  }
}
