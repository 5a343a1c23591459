import { useState } from 'react'
import { IMPORT_FORMAT_NAMES, importOptionsInput, type ImportReportView } from '../../../shared/contract/import-operations'
import { formatLocation } from '../../../shared/errors'
import { SPLITS, type Split } from '../../../shared/items/labels'
import { api } from '../api'
import { Choices } from '../components/Choices'
import { FileSource, type ChosenFile } from './FileSource'
import { ImportReport } from './ImportReport'
import { MappingForm } from './MappingForm'
import type { GenericMapping } from '../../../shared/items/generic-mapping'

type Format = (typeof IMPORT_FORMAT_NAMES)[number]

interface Settings {
  format: Format | ''
  set: string
  split: Split
  /** Accept invalid UTF-8, each invalid sequence replaced by U+FFFD and counted (as `assay import --lossy`). */
  lossy: boolean
  /** Leave out, counted, items the project already has instead of refusing the file. */
  skipExisting: boolean
  /** The generic format's columns; sent only with that format. */
  mapping: GenericMapping
}

function request(file: ChosenFile, s: Settings) {
  const common = importOptionsInput({ format: s.format || undefined, set: s.set, split: s.split, lossy: s.lossy, skipExisting: s.skipExisting, mapping: s.mapping })
  return file.kind === 'upload' ? { ...common, name: file.name, bytes: file.bytes } : { ...common, path: file.path }
}

/**
 * Import a file: chosen with the native dialog (desktop), dropped or picked (browser), or by path. Each new file is
 * previewed at once with its format detected afresh (a dry run: counts, every error with its line and field, the
 * mapping, the first rows); the import itself is all or nothing.
 */
export function ImportScreen() {
  const [file, setFile] = useState<ChosenFile | null>(null)
  const [settings, setSettings] = useState<Settings>({ format: '', set: '', split: 'none', lossy: false, skipExisting: false, mapping: { as: 'texts', columns: {} } })
  const [preview, setPreview] = useState<{ report: ImportReportView; of: Settings } | null>(null)
  const [done, setDone] = useState<ImportReportView | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function run(kind: 'preview' | 'import', chosen: ChosenFile, s: Settings) {
    setBusy(true)
    setError(null)
    try {
      const input = request(chosen, s)
      const report =
        'bytes' in input
          ? await api[kind === 'preview' ? 'import.previewUpload' : 'import.runUpload'](input)
          : await api[kind === 'preview' ? 'import.preview' : 'import.run'](input)
      if (kind === 'preview') {
        setPreview({ report, of: s })
        setDone(null)
      } else setDone(report)
    } catch (e) {
      const err = e as Error & { details?: Array<{ file?: string; line?: number; field?: string; message: string }> }
      setError([err.message, ...(err.details ?? []).map(formatLocation)].join('\n'))
    } finally {
      setBusy(false)
    }
  }

  const choose = (chosen: ChosenFile) => {
    // A new file starts over: its format is detected again, not carried over from the last one.
    const fresh: Settings = { ...settings, format: '', lossy: false, mapping: { as: settings.mapping.as, columns: {} } }
    setFile(chosen)
    setSettings(fresh)
    setPreview(null)
    setDone(null)
    void run('preview', chosen, fresh)
  }

  const change = (patch: Partial<Settings>) => setSettings((s) => ({ ...s, ...patch }))
  const chooseFormat = (format: Format | '') => {
    const next = { ...settings, format }
    setSettings(next)
    // The mapping form offers the file's columns, which a preview in the generic format reads.
    if (format === 'generic' && file) void run('preview', file, next)
  }
  const current = preview !== null && JSON.stringify(preview.of) === JSON.stringify(settings)
  const report = done ?? preview?.report ?? null

  return (
    <section className="import-screen">
      <h1>Import</h1>
      <FileSource onChosen={choose} disabled={busy} />
      {file && (
        <form
          className="import-form"
          aria-label="Import settings"
          onSubmit={(e) => {
            e.preventDefault()
            void run('preview', file, settings)
          }}
        >
          <p className="chosen-file">
            File: <code data-testid="chosen-file">{file.name}</code>
          </p>
          <label>
            Format
            <select aria-label="Format" value={settings.format} onChange={(e) => chooseFormat(e.target.value as Format | '')}>
              <Choices values={IMPORT_FORMAT_NAMES} empty={preview?.report.detected && !settings.format ? `Detect (${preview.report.format})` : 'Detect'} />
            </select>
          </label>
          {settings.format === 'generic' && (
            <MappingForm mapping={settings.mapping} columns={preview?.report.mapping.map((m) => m.field) ?? []} onChange={(mapping) => change({ mapping })} />
          )}
          <label>
            Set
            <input aria-label="Set name" value={settings.set} onChange={(e) => change({ set: e.target.value })} placeholder="file name" />
          </label>
          <label>
            Split
            <select aria-label="Import split" value={settings.split} onChange={(e) => change({ split: e.target.value as Split })}>
              <Choices values={SPLITS} />
            </select>
          </label>
          <label className="lossy-choice">
            <input type="checkbox" aria-label="Accept invalid UTF-8" checked={settings.lossy} onChange={(e) => change({ lossy: e.target.checked })} /> Accept invalid
            UTF-8 (each invalid sequence replaced by U+FFFD and counted)
          </label>
          <label className="check">
            <input type="checkbox" checked={settings.skipExisting} onChange={(e) => change({ skipExisting: e.target.checked })} /> Skip items already in the project
          </label>
          <div className="actions">
            <button type="submit" disabled={busy}>
              {preview ? 'Preview again' : 'Preview'}
            </button>
            <button
              type="button"
              className="primary"
              data-testid="run-import"
              disabled={busy || !current || (preview?.report.errors.length ?? 1) > 0 || done !== null}
              onClick={() => void run('import', file, settings)}
            >
              Import
            </button>
            {preview && !current && <span className="muted small">Settings changed: preview again before importing.</span>}
            {busy && (
              <span className="muted small" role="status">
                Working…
              </span>
            )}
          </div>
        </form>
      )}
      {error && (
        <pre className="error-box" role="alert">
          {error}
        </pre>
      )}
      {report && file && <ImportReport report={report} done={done !== null} fileName={file.name} />}
    </section>
  )
}
