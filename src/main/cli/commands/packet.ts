import { InvalidArgumentError, type Command } from 'commander'
import { INSTRUMENT_IDS, type BuiltInInstrumentId } from '../../../shared/instruments/types'
import { instrumentArg } from '../instrument-arg'
import { SPLITS, type Split } from '../../../shared/items/kinds'
import { withProject } from '../contract'
import { requireAnnotators, requireAssignments } from '../hints'
import type { CliIO } from '../run'

interface ExportCliOptions {
  annotator: string
  out: string
  set?: string
  split?: Split
  instrument?: string
  force?: boolean
  json?: boolean
}

function parseSplit(value: string): Split {
  if (!(SPLITS as ReadonlyArray<string>).includes(value)) throw new InvalidArgumentError(`expected one of ${SPLITS.join(', ')}`)
  return value as Split
}

function isInstrumentId(value: string): value is BuiltInInstrumentId {
  return (INSTRUMENT_IDS as ReadonlyArray<string>).includes(value)
}

/** The packet code loads only when a packet command runs. */
const packets = () => import('../../packets')

// A declared instrument's id is checked once the project is open.
const parseInstrument = instrumentArg()

export function registerPacket(program: Command, io: CliIO): void {
  const packet = program.command('packet').description('Annotator packets: export one annotator’s work for offline annotation, merge it back')

  packet
    .command('export')
    .description('Write a packet holding only one annotator’s assignments, blinded (hidden fields are not in the file)')
    .argument('<file>', 'the .assay project file')
    .requiredOption('--annotator <name>', 'the annotator the packet is for')
    .requiredOption('--out <path>', 'the packet file to write (.assay)')
    .option('--set <name>', 'only items of this set')
    .option('--split <split>', 'only items of this split: dev | test | none', parseSplit)
    .option('--instrument <id>', 'only assignments of this instrument', parseInstrument)
    .option('--force', 'replace an existing file at --out')
    .option('--json', 'print the result as JSON')
    .action(async (file: string, opts: ExportCliOptions) => {
      const { offlineCheckCoverage } = await packets()
      const result = await withProject(file, { mode: 'write' }, async (project) => {
        if ((await project.call('project.info', {})).mode !== 'packet') requireAssignments(file, (await requireAnnotators(project, file, [opts.annotator]))[0]!)
        return project.call('packets.export', {
          annotator: opts.annotator,
          out: opts.out,
          ...(opts.set !== undefined ? { set: opts.set } : {}),
          ...(opts.split !== undefined ? { split: opts.split } : {}),
          ...(opts.instrument !== undefined ? { instrument: opts.instrument } : {}),
          overwrite: opts.force ?? false
        })
      })
      if (opts.json) return io.out(JSON.stringify(result, null, 2))
      io.out(`Packet ${result.packetId} for ${result.annotator}: ${result.assignments} assignment${result.assignments === 1 ? '' : 's'} → ${result.path}`)
      for (const [instrument, n] of Object.entries(result.instruments)) {
        const coverage = isInstrumentId(instrument) ? offlineCheckCoverage(instrument) : 'merge-only'
        const note = coverage === 'full' ? '' : coverage === 'view' ? ' (item checks run offline on the view, again on merge)' : ' (item checks run on merge)'
        io.out(`  ${instrument}: ${n}${note}`)
      }
      if (result.answers) io.out(`  carries ${result.answers} earlier revision${result.answers === 1 ? '' : 's'} of ${result.annotator}'s own answers`)
      io.out(`Open it with: assay serve ${result.path}`)
    })

  packet
    .command('merge')
    .description('Bring packets back: all or nothing, refusing altered packets or packets of another project; merging again changes nothing')
    .argument('<file>', 'the .assay project file')
    .argument('<packets...>', 'packet files')
    .option('--json', 'print the result as JSON')
    .action(async (file: string, packetFiles: string[], opts: { json?: boolean }) => {
      const { packets: reports } = await withProject(file, { mode: 'write' }, (project) => project.call('packets.merge', { paths: packetFiles }))
      if (opts.json) return io.out(JSON.stringify({ packets: reports }, null, 2))
      for (const r of reports) {
        const rebased = r.rebased ? `, ${r.rebased} appended after newer revisions` : ''
        io.out(
          `${r.path}: ${r.annotator}, ${r.added} revision${r.added === 1 ? '' : 's'} added, ${r.alreadyPresent} already present${rebased}, ${r.statusesChanged} status${r.statusesChanged === 1 ? '' : 'es'} updated`
        )
      }
    })

  packet
    .command('list')
    .description('Packets made from this project and how many answers came back')
    .argument('<file>', 'the .assay project file')
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { json?: boolean }) => {
      const { packets: rows } = await withProject(file, { mode: 'read' }, (project) => project.call('packets.list', {}))
      if (opts.json) return io.out(JSON.stringify(rows, null, 2))
      if (!rows.length) return io.out('No packets.')
      for (const r of rows) {
        io.out(`${r.id}  ${r.annotator}  ${r.assignments} assignments  made ${r.createdAt}  ${r.mergedAt ? `merged ${r.mergedAt} (${r.mergedAnswers} revisions)` : 'not merged'}`)
      }
    })
}
