import { dirname, isAbsolute, resolve } from 'node:path'
import type { ImportContext } from './types'
import { readTextFile } from './utf8'

/**
 * The text of a file an import names (a proposal's Markdown by path), resolved beside the imported file. A
 * self-contained import (an uploaded file) may refer to nothing outside itself: any path is refused, never read,
 * so an upload cannot bring this machine's files into items that annotators and packets see.
 */
export function readReferencedText(ctx: ImportContext, path: string): { text: string; replaced: number } | { error: string } {
  if (ctx.selfContained) {
    return { error: 'an uploaded file cannot refer to other files (its Markdown must be inline); import it by path instead, where paths resolve beside it' }
  }
  const read = readTextFile(isAbsolute(path) ? path : resolve(dirname(ctx.path), path), ctx.lossy ?? false)
  if ('text' in read && ctx.replaced) ctx.replaced.count += read.replaced
  return read
}
