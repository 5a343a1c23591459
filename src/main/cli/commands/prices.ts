import { resolve } from 'node:path'
import type { Command } from 'commander'
import { AssayError } from '../../../shared/errors'
import { Project } from '../../store/project'
import type { CliIO } from '../run'

interface PricesOptions {
  provider?: string
  model?: string
  input?: string
  output?: string
  batchDiscount?: string
  json?: boolean
}

function dollars(raw: string | undefined, flag: string): number | undefined {
  if (raw === undefined) return undefined
  const n = Number(raw)
  if (!Number.isFinite(n) || n < 0 || raw.trim() === '') throw new AssayError('invalid_input', `${flag} must be a number of dollars per million tokens, at least 0, not "${raw}"`)
  return n
}

export function registerPrices(program: Command, io: CliIO): void {
  program
    .command('prices')
    .description("Show or change the project's price table (US dollars per million tokens), which estimates and run costs use")
    .argument('<file>', 'the .assay project file')
    .option('--provider <kind>', 'with --model: the row to set (openai, anthropic, google, openai-compatible)')
    .option('--model <name>', 'the model as the provider names it; dated snapshots take the price of their base name')
    .option('--input <usd>', 'dollars per million input tokens')
    .option('--output <usd>', 'dollars per million output tokens')
    .option('--batch-discount <share>', 'share taken off by the batch API, 0 to 1 (default 0.5 for a new row)')
    .option('--json', 'print JSON')
    .action(async (file: string, opts: PricesOptions) => {
      const { DEFAULT_PRICES, listPrices, priceFor, seedDefaultPrices, setPrice } = await import('../../runner/prices')
      const input = dollars(opts.input, '--input')
      const output = dollars(opts.output, '--output')
      const discount = opts.batchDiscount === undefined ? undefined : Number(opts.batchDiscount)
      if (discount !== undefined && !(Number.isFinite(discount) && discount >= 0 && discount <= 1)) throw new AssayError('invalid_input', `--batch-discount must be a share from 0 to 1, not "${opts.batchDiscount}"`)
      const changing = input !== undefined || output !== undefined || discount !== undefined
      if ((opts.provider || opts.model || changing) && !(opts.provider && opts.model)) {
        throw new AssayError('invalid_input', 'to set a price, give --provider and --model with --input, --output or --batch-discount')
      }
      const project = await Project.open(resolve(file))
      try {
        if (opts.provider && opts.model) {
          const current = priceFor(project.db, opts.provider, opts.model)
          const exact = current && current.model.toLowerCase() === opts.model.toLowerCase() ? current : undefined
          if ((input ?? exact?.inputPerMtok) === undefined || (output ?? exact?.outputPerMtok) === undefined) {
            throw new AssayError('invalid_input', `${opts.provider} ${opts.model} has no price yet: give both --input and --output`)
          }
          project.write((db) => {
            seedDefaultPrices(db)
            setPrice(db, { provider: opts.provider!, model: opts.model!, inputPerMtok: input ?? exact!.inputPerMtok, outputPerMtok: output ?? exact!.outputPerMtok, batchDiscount: discount ?? exact?.batchDiscount ?? 0.5 })
          })
        }
        // Until the first run writes the default list into the project, the defaults are what it would use.
        const own = listPrices(project.db)
        const prices = own.length ? own : [...DEFAULT_PRICES]
        if (opts.json) return io.out(JSON.stringify({ prices, source: own.length ? 'project' : 'default' }, null, 2))
        if (!own.length) io.out('The default list (written into the project on its first run):')
        for (const p of prices) io.out(`${p.provider}  ${p.model}  in $${p.inputPerMtok}  out $${p.outputPerMtok}  batch −${p.batchDiscount * 100}%`)
      } finally {
        project.close()
      }
    })
}
