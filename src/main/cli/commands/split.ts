import type { Command } from 'commander'
import { AssayError } from '../../../shared/errors'
import { itemKindSchema } from '../../../shared/items/kinds'
import { withProject } from '../contract'
import type { CliIO } from '../run'

export function registerSplit(program: Command, io: CliIO): void {
  program
    .command('split')
    .description('Make a seeded dev/test split, stratified by set and label (refused once the items are in use)')
    .argument('<file>', 'the .assay project file')
    .requiredOption('--test <fraction>', 'share of each stratum held out as test, e.g. 0.3')
    .option('--seed <seed>', 'seed of the split (default: the project seed)')
    .option('--set <name>', 'only items of this set')
    .option('--kind <kind>', 'only items of this kind')
    .option('--json', 'print the plan as JSON')
    .action(async (file: string, opts: { test: string; seed?: string; set?: string; kind?: string; json?: boolean }) => {
      const fraction = Number(opts.test)
      if (!(fraction > 0 && fraction < 1)) throw new AssayError('invalid_input', `--test must be a number between 0 and 1, not "${opts.test}"`)
      const kind = opts.kind === undefined ? undefined : itemKindSchema.safeParse(opts.kind)
      if (kind && !kind.success) throw new AssayError('invalid_input', `Unknown item kind "${opts.kind}"`)
      const input = { testFraction: fraction, ...(opts.seed !== undefined ? { seed: opts.seed } : {}), ...(opts.set !== undefined ? { set: opts.set } : {}), ...(kind ? { kind: kind.data } : {}) }
      const plan = await withProject(file, { mode: 'write' }, (project) => project.call('items.split', input))
      if (opts.json) return io.out(JSON.stringify(plan, null, 2))
      io.out(`Split with seed ${plan.seed}: ${plan.dev} dev, ${plan.test} test`)
      for (const s of plan.strata) io.out(`  ${s.stratum}: ${s.items} items, ${s.test} test`)
      for (const f of plan.fitsNoLongerHeldOut) {
        io.out(`Fit ${f.id} (${f.method}, ${f.instrument}) learned from ${f.movedItems} item(s) this split moved: it is no longer held out, and reports give it no held-out figures; fit again on the new split`)
      }
      for (const w of plan.warnings) io.err(`warning: ${w}`)
    })
}
