// `npm run bench:compare -- before.json [more.json…] --vs after.json [more.json…] [--noise 0.15]`: are two states of
// the code the same within noise? Several runs a side measure the machine's noise. Exits 1 when a ratio got slower
// beyond it, so a change can be checked before it lands.
import { readFileSync } from 'node:fs'
import { compareRuns, formatComparison } from './compare-figures'

const args = process.argv.slice(2)
const at = args.indexOf('--noise')
const noise = at >= 0 ? Number(args[at + 1]) : 0.15
const files = at >= 0 ? args.filter((_, i) => i !== at && i !== at + 1) : args
const vs = files.indexOf('--vs')
const [before, after] = vs >= 0 ? [files.slice(0, vs), files.slice(vs + 1)] : [files.slice(0, 1), files.slice(1)]
if (!before.length || !after.length || (vs < 0 && files.length !== 2)) {
  process.stderr.write('usage: npm run bench:compare -- <before.json>… --vs <after.json>… [--noise 0.15]\n')
  process.exit(2)
}
const read = (f: string): unknown => {
  try {
    return JSON.parse(readFileSync(f, 'utf8')) as unknown
  } catch (e) {
    process.stderr.write(`${f}: not a bench run's JSON (${(e as Error).message})\n`)
    process.exit(2)
  }
}
const result = compareRuns(before.map(read), after.map(read), noise)
process.stdout.write(`${formatComparison(result, noise)}\n`)
process.exit(result.changes.some((c) => c.verdict === 'slower') ? 1 : 0)
