import { setMaxListeners } from 'node:events'
import { AssayError } from '../../shared/errors'
import { parseJsonObject } from '../../shared/parse'
import { buildProbePair } from '../../shared/probes/pair'
import { finishForModel, renderRequest, templateRef } from '../../shared/templates'
import { redact } from '../providers/errors'
import { ProviderError, PROVIDER_KINDS, type ProviderKind } from '../providers/types'
import { cacheLookup, discardUnansweredRun, insertRun, markRunRunning, RecordWriter, runWithDefinition, setRunStatus, type RunOptions } from '../store/model-calls'
import { estimateTokens } from '../runner/estimate'
import { DEFAULT_RETRY_POLICY, gateFor } from '../runner/gate'
import { requestHash } from '../runner/hash'
import { ensureJudge, judgeConfig } from '../runner/judges'
import { costOf, priceFor, seedDefaultPrices } from '../runner/prices'
import { providerFor, type RunEnvironment } from '../runner/service'
import { isFatal, sendWithRetries } from '../runner/send'
import { resolveTemplate, usedValues } from '../runner/templates'
import { EnvKeyStore } from '../secrets/key-stores'
import { getItemByExternalId, insertItems } from '../store/items'
import type { Project } from '../store/project'
import { getProbeKind } from '../store/probe-kinds'
import { originalSides, type OriginalQuery, type OriginalSide } from './originals'
import type { MadeProbe, MakeResult } from './make-deterministic'
import { insertProbe } from '../store/probes'
import { probeCalls } from '../store/step-calls'

// Model-made probes: one request per original proposal with the kind's probe template, through the runner's parts —
// a recorded run (resumed when the same definition is asked again), the response cache keyed by request hash, the
// retry gate, the price table for the estimate — and each answer turned into a probe pair with its provenance.

export interface ModelMakeOptions extends OriginalQuery {
  kind: string
  n?: number | undefined
  toSet: string
  provider: string
  model: string
  baseUrl?: string | undefined
  concurrency: number
  dryRun?: boolean | undefined
  /** Where keys come from and which provider client is used (tests give the loopback fake's). */
  env?: RunEnvironment
}

export interface ModelMakeResult extends MakeResult {
  runId: number | null
  estimate: { calls: number; cached: number; inputTokens: number; outputTokens: number; costUsd: number | null } | null
  failed: number
}

/** The probe template of a kind: `probe-<kind>`, built in or added to the project. */
function templateOf(project: Project, kind: string) {
  try {
    return resolveTemplate(project.db, `probe-${kind}`).template
  } catch {
    throw new AssayError('invalid_input', `No probe template for "${kind}": add a template named probe-${kind} (placeholder {{proposal}}) to the project`)
  }
}

/** The probe text of an answer: JSON with `probe`, the whole changed proposal. */
export function readProbeAnswer(text: string, original: string): { ok: true; probe: string; change: string } | { ok: false; error: string } {
  const r = parseJsonObject(text)
  if (!r.ok) return r
  const probe = r.value.probe
  if (typeof probe !== 'string' || !probe.trim()) return { ok: false, error: 'the answer has no "probe" text' }
  if (probe.trim() === original.trim()) return { ok: false, error: 'the probe is identical to the original' }
  return { ok: true, probe, change: typeof r.value.change === 'string' ? r.value.change : '' }
}

export async function makeModelProbes(project: Project, o: ModelMakeOptions): Promise<ModelMakeResult> {
  if (!(PROVIDER_KINDS as readonly string[]).includes(o.provider)) {
    throw new AssayError('invalid_input', `Unknown provider "${o.provider}" (known: ${PROVIDER_KINDS.join(', ')})`)
  }
  const db = project.db
  const kind = getProbeKind(db, o.kind)
  const template = templateOf(project, kind.name)
  const judge = project.write((db) =>
    ensureJudge(db, { provider: o.provider as ProviderKind, model: o.model, ...(o.baseUrl ? { baseUrl: o.baseUrl } : {}) })
  )
  const config = judgeConfig(judge)
  let originals = originalSides(db, o)
  const result: ModelMakeResult = { made: [], skipped: [], runId: null, estimate: null, failed: 0 }
  // Originals that have this probe already are not asked again.
  const pending: Array<{ o: OriginalSide; system?: string; user: string; hash: string; pairId: string }> = []
  // --n takes the first N originals in seeded order; those with the probe already count, so a re-run adds none.
  let taken = 0
  for (const side of originals) {
    if (o.n !== undefined && taken >= o.n) break
    taken++
    const pairId = buildProbePair({ original: side.pair, side: side.side, kind, probeMarkdown: '-', madeBy: { method: 'model' }, seed: o.seed }).pairId
    if (getItemByExternalId(db, 'proposal-pair', pairId)) {
      result.skipped.push({ original: side.pair.pair_id, side: side.side, reason: `probe ${pairId} exists already` })
      continue
    }
    const rendered = finishForModel(template.entry, renderRequest(template, usedValues(template, { proposal: side.pair[side.side].markdown })), o.model)
    const hash = requestHash(config, { ...(rendered.system !== undefined ? { system: rendered.system } : {}), user: rendered.user, trial: 0 })
    pending.push({ o: side, ...(rendered.system !== undefined ? { system: rendered.system } : {}), user: rendered.user, hash, pairId })
  }
  originals = []
  const lookup = cacheLookup(db)
  const price = priceFor(db, judge.provider, judge.model)
  let inputTokens = 0
  let outputTokens = 0
  let cached = 0
  for (const p of pending) {
    if (lookup(p.hash)) {
      cached++
      continue
    }
    inputTokens += estimateTokens(`${p.system ?? ''}${p.user}`)
    // The answer repeats the whole proposal with the change.
    outputTokens += estimateTokens(p.o.pair[p.o.side].markdown) + 64
  }
  result.estimate = {
    calls: pending.length,
    cached,
    inputTokens,
    outputTokens,
    costUsd: price ? (inputTokens * price.inputPerMtok + outputTokens * price.outputPerMtok) / 1_000_000 : null
  }
  if (o.dryRun || pending.length === 0) return result

  // A run that cannot start (no key) is never recorded.
  const env = o.env ?? { keyStore: new EnvKeyStore() }
  const { provider, secrets } = await providerFor(judge, env)
  const key = `probe:${kind.name}@${kind.version}:${templateRef(template.entry)}:judge${judge.id}:set=${o.set}:sides=${o.sides.join('')}:origin=${o.origin ?? ''}:seed=${o.seed}:to=${o.toSet}`
  const options: RunOptions = {
    definitionKey: key,
    viewer: '',
    concurrency: o.concurrency,
    timeoutMs: DEFAULT_RETRY_POLICY.timeoutMs,
    attempts: DEFAULT_RETRY_POLICY.attempts,
    batch: false,
    outSet: o.toSet,
    skipped: [],
    skippedCount: 0
  }
  const runId = project.write((db) => {
    seedDefaultPrices(db)
    const existing = runWithDefinition(db, key)
    if (existing) return existing.id
    return insertRun(db, {
      instrumentId: 'generation',
      judgeId: judge.id,
      templateId: template.entry.id,
      templateVersion: template.entry.version,
      selection: { set: o.set, probe_kind: kind.name },
      seed: o.seed,
      bothOrders: false,
      trials: 1,
      options
    })
  })
  result.runId = runId
  const policy = { ...DEFAULT_RETRY_POLICY, ...env.retry }
  const gate = gateFor(judge.provider, judge.baseUrl, o.concurrency)
  const stop = new AbortController()
  setMaxListeners(0, stop.signal)
  let fatal: string | null = null
  const writer = new RecordWriter(project, () => {}, (e) => {
    fatal = `the project file could not be written: ${e.message}`
    stop.abort()
  })
  const calls = project.write(probeCalls)
  project.write((db) => markRunRunning(db, runId))

  const one = async (p: (typeof pending)[number]): Promise<void> => {
    const orderIndex = p.o.side === 'a' ? 0 : 1
    const prompt = { ...(p.system !== undefined ? { system: p.system } : {}), user: p.user, template: templateRef(template.entry), format: template.entry.answerFormat ?? 'json' }
    let row = calls.find(runId, p.o.itemId, orderIndex)
    let text: string | null = row && row.request_hash === p.hash && row.status !== 'failed' && row.status !== 'pending' ? row.raw_answer : null
    if (row && text === null && row.request_hash !== p.hash) project.write(() => calls.replan(row!.id, p.hash, JSON.stringify(prompt)))
    if (!row) {
      const id = project.write(() => calls.insert(runId, p.o.itemId, orderIndex, p.hash, JSON.stringify({ side: p.o.side, probe_kind: kind.name }), JSON.stringify(prompt)))
      row = { id, request_hash: p.hash, status: 'pending', raw_answer: null, attempts: 0 }
    }
    if (text === null) {
      const hit = lookup(p.hash)
      let meta: { inputTokens: number | null; outputTokens: number | null; modelVersion: string | null }
      let latencyMs: number | null = null
      let attempts = row.attempts
      if (hit) {
        text = hit.raw
        meta = hit
      } else {
        let sent
        try {
          sent = await sendWithRetries(provider, config, { ...(p.system !== undefined ? { system: p.system } : {}), user: p.user }, policy, gate, stop.signal)
        } catch (e) {
          if (e instanceof ProviderError && e.kind === 'cancelled') return
          throw e
        }
        attempts += sent.sent
        if ('error' in sent) {
          if (isFatal(sent.error)) {
            fatal ??= redact(sent.error.message, secrets)
            stop.abort()
          }
          result.failed++
          await writer.pushAndWait({ kind: 'failed', callId: row.id, error: redact(`${sent.error.kind}: ${sent.error.message}`, secrets), latencyMs: sent.latencyMs, attempts })
          return
        }
        text = sent.response.text
        meta = sent.response
        latencyMs = sent.latencyMs
      }
      const read = readProbeAnswer(text, p.o.pair[p.o.side].markdown)
      await writer.pushAndWait({
        kind: 'answer',
        callId: row.id,
        hash: p.hash,
        raw: text,
        inputTokens: meta.inputTokens,
        outputTokens: meta.outputTokens,
        modelVersion: meta.modelVersion,
        status: read.ok ? 'ok' : 'unparseable',
        judgement: read.ok ? { change: read.change } : null,
        error: read.ok ? null : read.error,
        costUsd: hit ? 0 : costOf(price, meta.inputTokens, meta.outputTokens, false),
        latencyMs,
        attempts,
        cached: !!hit
      })
    }
    const read = readProbeAnswer(text, p.o.pair[p.o.side].markdown)
    if (!read.ok) {
      result.skipped.push({ original: p.o.pair.pair_id, side: p.o.side, reason: `unusable answer: ${read.error}` })
      return
    }
    const built = buildProbePair({
      original: p.o.pair,
      side: p.o.side,
      kind,
      probeMarkdown: read.probe,
      madeBy: { method: 'model', template_id: template.entry.id, template_version: template.entry.version, model: judge.model, run_id: runId },
      seed: o.seed
    })
    project.write((db) => {
      if (getItemByExternalId(db, 'proposal-pair', built.pairId)) return
      const [itemId] = insertItems(db, [{ kind: 'proposal-pair', externalId: built.pairId, set: o.toSet, split: p.o.split, payload: built.payload }])
      insertProbe(db, { itemId: itemId!, originalItemId: p.o.itemId, provenance: built.provenance })
    })
    const made: MadeProbe = { pairId: built.pairId, original: p.o.pair.pair_id, side: p.o.side, detail: read.change || 'changed by the model' }
    result.made.push(made)
  }

  let next = 0
  const worker = async () => {
    while (!stop.signal.aborted) {
      const p = pending[next++]
      if (!p) return
      await one(p)
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, pending.length)) }, worker))
  } finally {
    writer.flush()
  }
  project.write((db) => setRunStatus(db, runId, fatal ? 'failed' : 'done'))
  // As for judges: a run without a single answer (a wrong model name, an unreachable server) leaves no record.
  const discarded = project.write((db) => discardUnansweredRun(db, runId))
  if (discarded.discarded) {
    result.runId = null
    throw new AssayError('provider', `No probe was made: not one answer from ${judge.model}${discarded.firstError ? ` (${discarded.firstError})` : ''}; no run was recorded`)
  }
  if (fatal) throw new AssayError('provider', `Probe run ${runId} stopped: ${fatal}`)
  result.made.sort((x, y) => x.pairId.localeCompare(y.pairId))
  return result
}
