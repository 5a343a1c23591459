import { resolve } from 'node:path'
import type { Command } from 'commander'
import { AssayError } from '../../../shared/errors'
import { readAnswerLimits, writeAnswerLimits, type AnswerLimits } from '../../annotation/answer-limits'
import { Project } from '../../store/project'
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
    const project = await Project.open(resolve(file))
    try {
      // A packet's caps are its project's: a merge holds its answers to the project's, whatever the packet says.
      if (project.isPacket && Object.keys(changes).length) {
        throw new AssayError('conflict', `${project.path} is an annotator packet: its caps are the project's (merging applies the project's caps); change them in the curator project and export the packet again`)
      }
      const limits = Object.keys(changes).length
        ? project.write((db) => writeAnswerLimits(db, { ...readAnswerLimits(db), ...changes }))
        : readAnswerLimits(project.db)
      if (opts.json) return io.out(JSON.stringify(limits, null, 2))
      for (const o of OPTIONS) io.out(`${o.flag}: ${limits[o.key]}  (${o.help})`)
    } finally {
      project.close()
    }
  })
}
