import type { Command } from 'commander'
import { AssayError } from '../../../shared/errors'
import { writeOutputFile } from '../../files/output-file'
import type { CliIO } from '../run'

interface OpenApiCliOptions {
  out?: string
  force?: boolean
}

export function registerApi(program: Command, io: CliIO): void {
  const api = program.command('api').description('The HTTP API of `assay serve`, for scripts and notebooks')
  api
    .command('openapi')
    .description('Write the OpenAPI 3.1 document of the HTTP API (also served at GET /api/openapi.json); to stdout without --out')
    .option('--out <path>', 'the file to write')
    .option('--force', 'replace an existing file at --out (never an SQLite file)')
    .action(async (opts: OpenApiCliOptions) => {
      if (opts.force && !opts.out) throw new AssayError('invalid_input', '--force needs --out')
      // The contract's schemas load only when the document is made.
      const { openApiDocument } = await import('../../web/openapi')
      const doc = openApiDocument()
      const text = `${JSON.stringify(doc, null, 2)}\n`
      if (!opts.out) return io.out(text)
      const path = writeOutputFile(opts.out, text, { force: opts.force ?? false })
      const paths = Object.keys(doc.paths as object).length
      io.out(`Wrote the OpenAPI document (${paths} paths) to ${path}`)
    })
}
