import { useRef, useState } from 'react'
import { MAX_UPLOAD_BYTES } from '../../../shared/contract/import-operations'
import { api } from '../api'

/** Where the file to import comes from: its content read in the page, or a path on this machine. */
export type ChosenFile = { kind: 'upload'; name: string; bytes: string } | { kind: 'path'; name: string; path: string }

/** Whether the page runs inside the desktop app (its preload supplies the transport) rather than in a browser. */
export function isDesktop(): boolean {
  return typeof window !== 'undefined' && window.assayTransport !== undefined
}

/**
 * The file's bytes as base64, untouched: the server decodes them as `assay import` does (reading the file as text
 * here would replace invalid UTF-8 with U+FFFD before anyone could see it).
 */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer())
  let binary = ''
  // In slices: one String.fromCharCode over megabytes of arguments would overflow the call stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() || path
}

/**
 * Picks the file: in the desktop app with the native open dialog; in a browser by dropping it on the zone or with
 * the file picker (its content is sent to the workbench server on this machine). A path can always be typed.
 */
export function FileSource({ onChosen, disabled }: { onChosen(file: ChosenFile): void; disabled: boolean }) {
  const [over, setOver] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const [path, setPath] = useState('')
  const picker = useRef<HTMLInputElement>(null)

  async function read(file: File | undefined) {
    setProblem(null)
    if (!file) return
    // A larger file is not read at all; one within the bound keeps its request within the server's body limit.
    if (file.size > MAX_UPLOAD_BYTES) return setProblem(`${file.name} is too large to upload here; import it by path or with assay import.`)
    onChosen({ kind: 'upload', name: file.name, bytes: await base64Of(file) })
  }

  async function chooseNative() {
    setProblem(null)
    try {
      const r = await api['import.chooseFile']({})
      if (r.path) onChosen({ kind: 'path', name: baseName(r.path), path: r.path })
    } catch (e) {
      setProblem((e as Error).message)
    }
  }

  return (
    <div className="file-source">
      {isDesktop() ? (
        <button type="button" className="primary" onClick={() => void chooseNative()} disabled={disabled}>
          Choose a file…
        </button>
      ) : (
        <div
          className={over ? 'drop-zone over' : 'drop-zone'}
          data-testid="drop-zone"
          onDragOver={(e) => {
            e.preventDefault()
            setOver(true)
          }}
          onDragLeave={() => setOver(false)}
          onDrop={(e) => {
            e.preventDefault()
            setOver(false)
            void read(e.dataTransfer.files[0])
          }}
        >
          <p>
            Drop a file here, or{' '}
            <button type="button" className="link" onClick={() => picker.current?.click()} disabled={disabled}>
              choose one from this computer
            </button>
            .
          </p>
          <p className="muted small">JSONL, JSON or CSV, up to {(MAX_UPLOAD_BYTES / 1e6).toFixed(0)} MB.</p>
          <input
            ref={picker}
            type="file"
            className="visually-hidden"
            aria-label="File to import"
            data-testid="file-input"
            accept=".jsonl,.json,.csv,.tsv,.ndjson,.txt"
            onChange={(e) => {
              void read(e.target.files?.[0])
              e.target.value = ''
            }}
          />
        </div>
      )}
      <details className="path-entry">
        <summary>Or give a path on this machine</summary>
        <form
          onSubmit={(e) => {
            e.preventDefault()
            if (path.trim()) onChosen({ kind: 'path', name: baseName(path.trim()), path: path.trim() })
          }}
        >
          <label>
            File path <input aria-label="File path" value={path} onChange={(e) => setPath(e.target.value)} placeholder="/path/to/pairs.jsonl" />
          </label>
          <button type="submit" disabled={disabled || !path.trim()}>
            Use this file
          </button>
        </form>
        <p className="muted small">A path lets the file refer to others beside it (proposals in Markdown files, for example).</p>
      </details>
      {problem && (
        <p className="error-box" role="alert">
          {problem}
        </p>
      )}
    </div>
  )
}
