import type { Command } from 'commander'
import { withProject } from '../contract'
import type { CliIO } from '../run'

export function registerInfo(program: Command, io: CliIO): void {
  program
    .command('info')
    .description('Print the schema version and counts of a project')
    .argument('<file>', 'the .assay project file')
    .option('--json', 'print JSON')
    .option('--check', "also check the file's integrity (PRAGMA quick_check: reads the whole file)")
    .action(async (file: string, opts: { json?: boolean; check?: boolean }) => {
      // The integrity check reads every page, so it is asked for: `info` stays instant on large projects.
      const how = { mode: 'read' as const, verify: opts.check === true, onNotWritable: (path: string) => io.err(`note: ${path} is read-only; opened for reading`) }
      const info = await withProject(file, how, (project) => project.call('project.info', {}))
      // Opening verified the file (a damaged one is refused before this point), so the check passed.
      if (opts.json) {
        io.out(JSON.stringify(opts.check ? { ...info, integrity: 'ok' } : info, null, 2))
        return
      }
      io.out(`${info.name} (${info.path})`)
      io.out(`schema ${info.schemaVersion} · ${info.mode} · project ${info.projectId}`)
      if (opts.check) io.out('integrity: ok (PRAGMA quick_check)')
      io.out(`items ${info.items} · annotators ${info.annotators} · annotations ${info.annotations} · judgements ${info.judgements} · runs ${info.runs}`)
      if (info.counts.length) {
        io.out('')
        io.out(table(['kind', 'set', 'split', 'items'], info.counts.map((c) => [c.kind, c.set_name, c.split, String(c.n)])))
      }
    })
}

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ')
  return [line(head), ...rows.map(line)].join('\n')
}
