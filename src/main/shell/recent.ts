import { existsSync, mkdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs'
import { dirname, join } from 'node:path'

const MAX_RECENT = 10

/** Recently opened projects, kept in the user-data folder (never inside a project). */
export class RecentProjects {
  private readonly file: string
  constructor(userDataDir: string) {
    this.file = join(userDataDir, 'recent-projects.json')
  }

  list(): string[] {
    try {
      const data = JSON.parse(readFileSync(this.file, 'utf8')) as unknown
      return Array.isArray(data) ? data.filter((p): p is string => typeof p === 'string' && existsSync(p)) : []
    } catch {
      return []
    }
  }

  add(path: string): string[] {
    const next = [path, ...this.list().filter((p) => p !== path)].slice(0, MAX_RECENT)
    mkdirSync(dirname(this.file), { recursive: true })
    const tmp = `${this.file}.tmp`
    writeFileSync(tmp, JSON.stringify(next, null, 2))
    renameSync(tmp, this.file)
    return next
  }
}
