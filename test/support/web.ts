import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** A renderer folder in `dir` holding only an empty page, for web servers whose page is not under test. */
export function stubRendererDir(dir: string): string {
  const renderer = join(dir, 'renderer')
  mkdirSync(renderer)
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>t</title>')
  return renderer
}
