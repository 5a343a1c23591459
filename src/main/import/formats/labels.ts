import type { ReadResult } from '../read-records'
import { emptyParsed, type ImportContext, type ParsedImport } from '../types'
export async function parseLabels(_ctx: ImportContext, _read: ReadResult): Promise<ParsedImport> {
  return emptyParsed()
}
