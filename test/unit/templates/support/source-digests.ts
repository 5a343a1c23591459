import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { templateRef } from '../../../../src/shared/templates'
import { loadBuiltInTemplates } from './load-templates'
import { VERBATIM, grantedOmegaStage4System, grokSuffixFromSeed } from './seed-locations'
import { SEED_FILES, locate, seedsDir, type SeedLocation } from './seeds'

// What the fidelity tests prove is pinned inside the repository: the SHA-256 of every source passage a template part
// reproduces, computed once from the source documents (source-digests.json). Every run compares each template part
// against its pinned digest; where the source documents are present, the digests are recomputed from them as well,
// so the pinned file cannot drift from the sources.

export const SOURCES_ABSENT = 'source documents not present'

export function sourcesPresent(): boolean {
  return Object.values(SEED_FILES).every((f) => existsSync(resolve(seedsDir(), f)))
}

/** A suite title that says why it is skipped, where it is. */
export function withSourcesTitle(title: string): string {
  return sourcesPresent() ? title : `${title} (skipped: ${SOURCES_ABSENT})`
}

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/** Parts whose text the source states by a rule rather than verbatim. */
const DERIVED: Record<string, Record<string, () => string>> = {
  'omega-stage-4-granted@1': {
    system: grantedOmegaStage4System,
    user: () => locate(VERBATIM['hypothesis-stage@1']?.user as SeedLocation)
  }
}

/** The source text a template part reproduces (reads the source documents). */
export function sourceText(ref: string, part: string): string | undefined {
  const derived = DERIVED[ref]?.[part]
  if (derived) return derived()
  const loc = VERBATIM[ref]?.[part]
  return loc ? locate(loc) : undefined
}

/** Passages pinned besides the template parts, by name. */
const OTHER_PASSAGES: Record<string, () => string> = {
  'grok-suffix instruction': () => grokSuffixFromSeed().instruction,
  'grok-suffix json-only': () => grokSuffixFromSeed().jsonOnly,
  'hypothesis text form': () => locate({ seed: '001', after: ['Generating hypotheses§'], startAt: '"[statement]', to: ';' })
}

/** Key of a template part in the digest file. */
export function partKey(ref: string, part: string): string {
  return `${ref} ${part}`
}

/** Every digest, computed from the source documents. */
export function computeSourceDigests(): Record<string, string> {
  const out: Record<string, string> = {}
  for (const t of loadBuiltInTemplates().templates) {
    if (t.entry.source.seed === null) continue
    const ref = templateRef(t.entry)
    for (const part of Object.keys(t.parts).sort()) {
      const text = sourceText(ref, part)
      if (text !== undefined) out[partKey(ref, part)] = sha256(text)
    }
  }
  for (const [name, text] of Object.entries(OTHER_PASSAGES)) out[name] = sha256(text())
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)))
}

const DIGEST_FILE = resolve(dirname(fileURLToPath(import.meta.url)), '../source-digests.json')

export function pinnedDigests(): Record<string, string> {
  return JSON.parse(readFileSync(DIGEST_FILE, 'utf8')) as Record<string, string>
}

// `npx tsx test/unit/templates/support/source-digests.ts` (with the source documents present) rewrites the file.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!sourcesPresent()) throw new Error(`${SOURCES_ABSENT} (looked in ${seedsDir()}; set ASSAY_SEEDS_DIR)`)
  writeFileSync(DIGEST_FILE, `${JSON.stringify(computeSourceDigests(), null, 2)}\n`)
  process.stdout.write(`wrote ${DIGEST_FILE}\n`)
}
