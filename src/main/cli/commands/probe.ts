import { resolve } from 'node:path'
import { InvalidArgumentError, type Command } from 'commander'
import { AssayError } from '../../../shared/errors'
import { FORMULA_EDIT_OPS, type FormulaEditOp } from '../../../shared/probes/formula-edit'
import { withProject } from '../contract'
import { PROVIDER_KINDS, type ProviderKind } from '../../providers/types'
import type { CliIO } from '../run'

interface MakeCliOptions {
  kind: string
  from: string
  n?: number
  mode: 'model' | 'deterministic'
  side: 'a' | 'b' | 'both'
  origin?: 'human' | 'ai'
  toSet: string
  seed?: string
  edit?: string[]
  provider?: ProviderKind
  model?: string
  baseUrl?: string
  concurrency?: string
  dryRun?: boolean
  json?: boolean
}

function positiveInt(value: string): number {
  const n = Number(value)
  if (!(Number.isInteger(n) && n > 0)) throw new InvalidArgumentError(`expected a positive integer (got "${value}")`)
  return n
}

function oneOf<T extends string>(values: readonly T[]) {
  return (value: string): T => {
    if (!(values as readonly string[]).includes(value)) throw new InvalidArgumentError(`expected one of ${values.join(', ')} (got "${value}")`)
    return value as T
  }
}

function editOps(names: string[] | undefined): FormulaEditOp[] | undefined {
  if (!names) return undefined
  for (const n of names) {
    if (!(FORMULA_EDIT_OPS as readonly string[]).includes(n)) {
      throw new AssayError('invalid_input', `Unknown formula edit "${n}" (known: ${FORMULA_EDIT_OPS.join(', ')})`)
    }
  }
  return names as FormulaEditOp[]
}

export function registerProbe(program: Command, io: CliIO): void {
  const probe = program
    .command('probe')
    .description('Perturbation probes: items derived from originals with one controlled flaw, to stress-test judges')

  probe
    .command('make')
    .description('Make probes of one kind from the proposal pairs of a set (each probe beside its original, as a new pair)')
    .argument('<file>', 'the .assay project file')
    .requiredOption('--kind <kind>', 'probe kind: formula-error, inflated-framing, prior-art-duplicate, citation-fabrication or a defined kind')
    .requiredOption('--from <set>', 'set whose proposal pairs are the originals')
    .option('--n <count>', 'at most this many probes (seeded choice of originals)', positiveInt)
    .option('--mode <mode>', 'deterministic (formula-error: a seeded formula edit) or model (a probe template)', oneOf(['model', 'deterministic'] as const), 'deterministic')
    .option('--side <side>', 'which proposal of each pair to perturb: a, b or both', oneOf(['a', 'b', 'both'] as const), 'both')
    .option('--origin <origin>', 'only perturb proposals of this origin (human or ai)', oneOf(['human', 'ai'] as const))
    .option('--to-set <set>', 'set the probe pairs go into', 'probes')
    .option('--seed <seed>', 'seed of the choices (default: the project seed)')
    .option('--edit <op...>', `deterministic mode: the formula edits allowed (${FORMULA_EDIT_OPS.join(', ')})`)
    .option('--provider <provider>', 'model mode: openai, anthropic, google or openai-compatible', oneOf(PROVIDER_KINDS))
    .option('--model <model>', 'model mode: the model that writes the probes')
    .option('--base-url <url>', 'model mode: endpoint of an OpenAI-compatible server')
    .option('--concurrency <n>', 'model mode: requests at once', '4')
    .option('--dry-run', 'say what would be made (model mode: calls and estimated cost) and write nothing')
    .option('--json', 'print the result as JSON')
    .action(async (file: string, opts: MakeCliOptions) => {
      const edits = editOps(opts.edit)
      if (opts.mode === 'model' && (!opts.provider || !opts.model)) throw new AssayError('invalid_input', 'The model mode needs --provider and --model')
      const concurrency = positiveInt(opts.concurrency ?? '4')
      const result = await withProject(file, { mode: 'write' }, (project) =>
        project.call('probes.make', {
          kind: opts.kind,
          from: opts.from,
          mode: opts.mode,
          sides: opts.side === 'both' ? ['a', 'b'] : [opts.side],
          toSet: opts.toSet,
          ...(opts.n !== undefined ? { n: opts.n } : {}),
          ...(opts.origin ? { origin: opts.origin } : {}),
          ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
          ...(opts.dryRun ? { dryRun: true } : {}),
          ...(opts.mode === 'deterministic'
            ? edits ? { edits } : {}
            : { provider: opts.provider!, model: opts.model!, concurrency, ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}) })
        })
      )
      if (opts.json) return io.out(JSON.stringify(opts.mode === 'deterministic' ? { made: result.made, skipped: result.skipped } : result, null, 2))
      if (opts.mode === 'deterministic') {
        io.out(`${opts.dryRun ? 'Would make' : 'Made'} ${result.made.length} ${opts.kind} probe(s) in set "${opts.toSet}"`)
      } else {
        if (result.estimate) io.out(`${result.estimate.calls} call(s), estimated cost ${result.estimate.costUsd === null ? 'unknown (no price for this model)' : `$${result.estimate.costUsd.toFixed(4)}`}`)
        if (!opts.dryRun) io.out(`Made ${result.made.length} ${opts.kind} probe(s) in set "${opts.toSet}" (run ${result.runId ?? '-'})`)
      }
      for (const m of result.made) io.out(`  ${m.pairId}: ${m.detail}`)
      for (const s of result.skipped) io.out(`  skipped ${s.original}:${s.side}: ${s.reason}`)
    })

  probe
    .command('list')
    .description('Every probe with its original, kind, how it was made and its verification')
    .argument('<file>', 'the .assay project file')
    .option('--kind <kind>', 'only probes of this kind')
    .option('--set <set>', 'only probes in this set')
    .option('--json', 'print the list as JSON (with full provenance)')
    .action(async (file: string, opts: { kind?: string; set?: string; json?: boolean }) => {
      const { probes: rows } = await withProject(file, { mode: 'read' }, (project) =>
        project.call('probes.list', { ...(opts.kind ? { kind: opts.kind } : {}), ...(opts.set ? { set: opts.set } : {}) })
      )
      if (opts.json) return io.out(JSON.stringify(rows, null, 2))
      if (!rows.length) return io.out('No probes; make some with `assay probe make`')
      for (const r of rows) {
        const how = r.provenance.made_by.method === 'model' ? `model ${r.provenance.made_by.model ?? ''} ${r.provenance.made_by.template_id ?? ''}@${r.provenance.made_by.template_version ?? ''}` : r.method
        const by = r.verification.verifiedBy.length ? ` by ${r.verification.verifiedBy.join(', ')}` : ''
        io.out(`${r.externalId}\t${r.kind}@${r.kindVersion}\tfrom ${r.originalExternalId}:${r.provenance.original.side}\t${how}\t${r.verification.status}${by}`)
      }
    })

  probe
    .command('export')
    .description('Write probes in the pairs format, each with its provenance (probe_of) and, first, its original pair')
    .argument('<file>', 'the .assay project file')
    .requiredOption('--out <path>', 'the JSONL file to write')
    .option('--kind <kind>', 'only probes of this kind')
    .option('--set <set>', 'only probes in this set')
    .option('--without-originals', 'leave the original pairs out (the importing project must have them)')
    .option('--force', 'replace an existing file (never an SQLite file)')
    .action(async (file: string, opts: { out: string; kind?: string; set?: string; withoutOriginals?: boolean; force?: boolean }) => {
      const r = await withProject(file, { mode: 'read' }, (project) =>
        project.call('probes.export', {
          out: resolve(opts.out),
          withOriginals: !opts.withoutOriginals,
          overwrite: opts.force === true,
          ...(opts.kind ? { kind: opts.kind } : {}),
          ...(opts.set ? { set: opts.set } : {})
        })
      )
      io.out(`Wrote ${r.probes} probe(s) and ${r.originals} original pair(s) to ${r.path}; import with \`assay import <file> pairs ${r.path}\``)
    })

  probe
    .command('kinds')
    .description('The probe kinds: built-in ones and those the project defines, with their expected verdicts')
    .argument('<file>', 'the .assay project file')
    .option('--json', 'print as JSON')
    .action(async (file: string, opts: { json?: boolean }) => {
      const { kinds } = await withProject(file, { mode: 'read' }, (project) => project.call('probes.kinds', {}))
      if (opts.json) return io.out(JSON.stringify(kinds, null, 2))
      for (const k of kinds) io.out(`${k.name}@${k.version}\t${k.pairwise}\t${k.flaw ? `${k.flaw.type}/${k.flaw.severity}` : 'no flaw'}\t${k.builtin ? 'built-in' : 'defined'}`)
    })

  probe
    .command('kind')
    .description('Define a probe kind (a changed definition becomes a new version)')
    .argument('<file>', 'the .assay project file')
    .argument('<name>', 'the kind, e.g. sample-size-inflation')
    .requiredOption('--title <text>', 'a short title')
    .requiredOption('--instruction <text>', 'what the edit must do')
    .option('--pairwise <rule>', 'expected pairwise verdict: original_better or no_preference', oneOf(['original_better', 'no_preference'] as const), 'original_better')
    .option('--flaw <type>', 'the flaw type a flaw audit should find (omit for none)')
    .option('--severity <severity>', 'its planted severity', oneOf(['minor', 'major', 'fatal'] as const), 'major')
    .action(async (file: string, name: string, opts: { title: string; instruction: string; pairwise: 'original_better' | 'no_preference'; flaw?: string; severity: 'minor' | 'major' | 'fatal' }) => {
      const { userProbeKindSchema } = await import('../../../shared/probes/kinds')
      const parsed = userProbeKindSchema.safeParse({
        name,
        title: opts.title,
        instruction: opts.instruction,
        pairwise: opts.pairwise,
        flaw: opts.flaw ? { type: opts.flaw, severity: opts.severity } : null
      })
      if (!parsed.success) throw new AssayError('invalid_input', `Probe kind "${name}": ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`)
      const r = await withProject(file, { mode: 'write' }, (project) => project.call('probes.defineKind', parsed.data))
      io.out(r.added ? `Defined ${r.kind.name}@${r.kind.version}` : `${r.kind.name}@${r.kind.version} is unchanged`)
    })
}
