import type { Command } from 'commander'
import { AssayError } from '../../../shared/errors'
import { withProject } from '../contract'
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
      const input = dollars(opts.input, '--input')
      const output = dollars(opts.output, '--output')
      const discount = opts.batchDiscount === undefined ? undefined : Number(opts.batchDiscount)
      if (discount !== undefined && !(Number.isFinite(discount) && discount >= 0 && discount <= 1)) throw new AssayError('invalid_input', `--batch-discount must be a share from 0 to 1, not "${opts.batchDiscount}"`)
      const changing = input !== undefined || output !== undefined || discount !== undefined
      if ((opts.provider || opts.model || changing) && !(opts.provider && opts.model)) {
        throw new AssayError('invalid_input', 'to set a price, give --provider and --model with --input, --output or --batch-discount')
      }
      const setting = opts.provider !== undefined && opts.model !== undefined
      const { prices, source } = await withProject(file, { mode: setting ? 'write' : 'read' }, async (project) => {
        if (!setting) return project.call('prices.list', {})
        const provider = opts.provider!
        const model = opts.model!
        // A row changed in part keeps its other figures: the project's row of this very model, or the default one.
        const listed = await project.call('prices.list', {})
        const exact = listed.prices.find((p) => p.provider === provider && p.model.toLowerCase() === model.toLowerCase())
        const inputPerMtok = input ?? exact?.inputPerMtok
        const outputPerMtok = output ?? exact?.outputPerMtok
        if (inputPerMtok === undefined || outputPerMtok === undefined) throw new AssayError('invalid_input', `${provider} ${model} has no price yet: give both --input and --output`)
        return project.call('prices.set', { provider, model, inputPerMtok, outputPerMtok, batchDiscount: discount ?? exact?.batchDiscount ?? 0.5 })
      })
      if (opts.json) return io.out(JSON.stringify({ prices, source }, null, 2))
      if (source === 'default') io.out('The default list (written into the project on its first run):')
      for (const p of prices) io.out(`${p.provider}  ${p.model}  in $${p.inputPerMtok}  out $${p.outputPerMtok}  batch −${p.batchDiscount * 100}%`)
    })
}
