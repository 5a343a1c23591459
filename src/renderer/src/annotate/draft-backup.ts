// A copy of unsaved form state in the browser's storage, written on every change and removed once main has the
// draft. If the connection to main drops (or the page closes before the debounced save), reopening the item
// restores the answer from here.

export interface DraftBackup {
  data: unknown
  activeMs: number
  at: string
  /** The layout token of the item the answer was entered in (main's; it names no side). */
  layout?: string | undefined
}

export function backupKey(projectId: string, annotatorId: number, assignmentId: number): string {
  return `assay:draft:${projectId}:${annotatorId}:${assignmentId}`
}

function storage(): Storage | null {
  try {
    return window.localStorage
  } catch {
    return null
  }
}

export function writeBackup(key: string, backup: DraftBackup): void {
  try {
    storage()?.setItem(key, JSON.stringify(backup))
  } catch {
    // Storage full or disabled: the server draft is the only copy, as without a backup.
  }
}

export function readBackup(key: string): DraftBackup | null {
  try {
    const raw = storage()?.getItem(key)
    if (!raw) return null
    const parsed = JSON.parse(raw) as DraftBackup
    return typeof parsed.at === 'string' && typeof parsed.activeMs === 'number' ? parsed : null
  } catch {
    return null
  }
}

export function dropBackup(key: string): void {
  try {
    storage()?.removeItem(key)
  } catch {
    // Nothing to remove.
  }
}

/**
 * Keeps a copy made for another layout of the item apart (never read against the layout now shown) and clears the
 * item's own slot.
 */
export function setBackupAside(key: string, backup: DraftBackup): void {
  writeBackup(`${key}:aside:${backup.layout ?? 'unknown'}`, backup)
  dropBackup(key)
}
