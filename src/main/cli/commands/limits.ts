import type { Command } from 'commander'
import { AssayError } from '../../../shared/errors'
import type { AnswerLimits } from '../../../shared/contract/limits-operations'
import { withProject } from '../contract'
import type { CliIO } from '../run'

const OPTIONS: Array<{ flag: string; key: keyof AnswerLimits; help: string }> = [
  { flag: 'answer-bytes', key: 'judgement_bytes', help: 'largest answer, in bytes of its JSON' },
  { flag: 'text-chars', key: 'text_chars', help: 'longest text field of an answer, in characters' },
  { flag: 'burst', key: 'submissions_burst', help: 'submissions a session may make at once' },
  { flag: 'per-minute', key: 'submissions_per_minute', help: 'submissions a session earns per minute after that' }
]

export function registerLimits(program: Command, io: CliIO): void {
  const cmd = program
    .command('limits')
    .description("Show or change the project's caps on answers and submission rate")
    .argument('<file>', 'the .assay project file')
    .option('--json', 'print JSON')
  for (const o of OPTIONS) cmd.option(`--${o.flag} <n>`, o.help)
  cmd.action(async (file: string, opts: Record<string, string | boolean | undefined>) => {
    const changes: Partial<AnswerLimits> = {}
    for (const o of OPTIONS) {
      const raw = opts[o.flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())]
      if (raw === undefined) continue
      const n = Number(raw)
      if (!Number.isFinite(n) || n <= 0 || (o.key !== 'submissions_per_minute' && !Number.isInteger(n))) {
        throw new AssayError('invalid_input', `--${o.flag} must be a positive ${o.key === 'submissions_per_minute' ? 'number' : 'whole number'}, not "${String(raw)}"`)
      }
      changes[o.key] = n
    }
    const changing = Object.keys(changes).length > 0
    const limits = await withProject(file, { mode: changing ? 'write' : 'read' }, (project) => (changing ? project.call('limits.set', changes) : project.call('limits.get', {})))
    if (opts.json) return io.out(JSON.stringify(limits, null, 2))
    for (const o of OPTIONS) io.out(`${o.flag}: ${limits[o.key]}  (${o.help})`)
  })
}
