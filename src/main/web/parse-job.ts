import { createRequire } from 'node:module'
import { existsSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { ParseAnswer, ParseRequest } from './parse-worker'

/** Where a build puts the worker: beside the bundle that holds this code, or one folder up from a chunk. */
const BUILT_WORKER = ['./parse-worker.mjs', '../parse-worker.mjs', './parse-worker.js', '../parse-worker.js']

/**
 * Starts the parse worker. Built (the compiled command line) it is its own entry file near this bundle; run from
 * source (tsx, tests) the worker first registers the same TypeScript loader, then imports the source file.
 */
function startWorker(): Worker {
  const here = import.meta.url
  if (!here.endsWith('.ts')) {
    const built = BUILT_WORKER.map((p) => new URL(p, here)).find((url) => existsSync(fileURLToPath(url)))
    if (!built) throw new Error(`the parse worker is missing beside ${fileURLToPath(here)}; rebuild Assay`)
    return new Worker(built)
  }
  const require = createRequire(here)
  const loader = pathToFileURL(require.resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href
  const entry = new URL('./parse-worker.ts', here).href
  const code = `import(${JSON.stringify(loader)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}) })`
  return new Worker(code, { eval: true })
}

/**
 * The trees, one per text; `too-slow` when this parse ran past its budget, `too-large` when its trees would take
 * more than allowed; null when it failed or was cut short.
 */
export type ParseOutcome = unknown[] | 'too-slow' | 'too-large' | null

interface Pending {
  resolve(outcome: ParseOutcome): void
  budgetMs: number
  timer: NodeJS.Timeout
}

/**
 * How long a request may wait for the worker to take it up (its start, loading the pipeline, a parse ahead of it)
 * before its page goes without it; its own budget runs only once the worker has started on it.
 */
const QUEUE_MS = 20_000

let worker: Worker | null = null
let nextId = 1
const pending = new Map<number, Pending>()

/**
 * Ends the worker and answers everything it still held: `slow` with `too-slow`, the rest with null (those pages go
 * without their item parsed).
 */
function stop(slow?: number): void {
  const w = worker
  worker = null
  for (const [id, p] of pending) {
    clearTimeout(p.timer)
    pending.delete(id)
    p.resolve(id === slow ? 'too-slow' : null)
  }
  if (w) void w.terminate()
}

function ensureWorker(): Worker {
  if (worker) return worker
  const w = startWorker()
  w.on('message', (m: ParseAnswer) => {
    const p = pending.get(m.id)
    if (!p) return
    clearTimeout(p.timer)
    if ('started' in m) {
      p.timer = setTimeout(() => stop(m.id), p.budgetMs)
      return
    }
    pending.delete(m.id)
    p.resolve('hasts' in m ? m.hasts : 'tooLarge' in m ? 'too-large' : null)
  })
  w.on('error', () => {
    if (worker === w) stop()
  })
  w.on('exit', () => {
    if (worker === w) stop()
  })
  // An idle worker does not keep the process alive (a stopped `assay serve` exits); it is started again on the next
  // page that needs it. After the listeners: adding a 'message' listener refs the worker again.
  w.unref()
  worker = w
  return w
}

/**
 * Parses texts as the window would (one tree per text) off the main thread. A parse that takes longer than
 * `budgetMs` (counted from when the worker starts on it, so a cold start or a busy moment does not count against
 * an ordinary item) ends the worker, so a text that would take minutes does not go on using a core, and the next
 * page starts a fresh one.
 */
export function parseOffThread(texts: ParseRequest['texts'], budgetMs: number, maxBytes: number): Promise<ParseOutcome> {
  let w: Worker
  try {
    w = ensureWorker()
  } catch {
    return Promise.resolve(null)
  }
  const id = nextId++
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      // Only this request gives up; the parse the worker is on goes on within its own budget.
      pending.delete(id)
      resolve(null)
    }, QUEUE_MS)
    pending.set(id, { resolve, budgetMs, timer })
    w.postMessage({ id, texts, maxBytes } satisfies ParseRequest)
  })
}
