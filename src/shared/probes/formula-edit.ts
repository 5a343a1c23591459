import { sha256Prefix64, seedText } from '../protocol/hash'
import { findEquations, type Equation } from './equations'
import { FORMULA_EDIT_METHOD, FORMULA_EDIT_OPS, type FormulaEditOp } from './formula-edit-method'

// The deterministic formula-error probe: one equation chosen by seeded choice, one typed edit applied to it, and the
// exact edit recorded so anyone can reapply or undo it. Method name recorded with every edit.

export { FORMULA_EDIT_METHOD, FORMULA_EDIT_OPS, type FormulaEditOp }

/** A candidate edit inside one equation's LaTeX: replace tex[start, end) by `to`. */
interface Candidate {
  op: FormulaEditOp
  start: number
  end: number
  to: string
}

export interface FormulaEdit {
  method: typeof FORMULA_EDIT_METHOD
  seed: string
  op: FormulaEditOp
  /** The equation as it was and as it is in the probe. */
  equation: { index: number; display: boolean; before: string; after: string }
  /** The replaced text and its replacement, with its offsets in the original Markdown. */
  from: string
  to: string
  at: { start: number; end: number }
}

export interface FormulaEditResult {
  markdown: string
  edit: FormulaEdit
}

/** Index just past the group opened at `open` (`{` … `}`, or `(` … `)`), or -1 if it never closes. */
function groupEnd(tex: string, open: number): number {
  const opener = tex[open]
  const closer = opener === '{' ? '}' : opener === '(' ? ')' : opener === '[' ? ']' : ''
  if (!closer) return -1
  let depth = 0
  for (let i = open; i < tex.length; i++) {
    const c = tex[i]
    if (c === '\\') {
      i++
      continue
    }
    if (c === opener) depth++
    else if (c === closer && --depth === 0) return i + 1
  }
  return -1
}

/** Index just past the sub/superscripts that follow position i (`_k`, `^{2}`, `_{h}^2`). */
function scriptsEnd(tex: string, i: number): number {
  while (tex[i] === '_' || tex[i] === '^') {
    const next = tex[i + 1]
    if (next === undefined) return i
    if (next === '{') {
      const end = groupEnd(tex, i + 1)
      if (end < 0) return i
      i = end
    } else if (next === '\\') {
      const m = /^\\[a-zA-Z]+/.exec(tex.slice(i + 1))
      i = i + 1 + (m ? m[0].length : 1)
    } else i += 2
  }
  return i
}

/** Index just past one atom starting at i (a command, letter or digit run, braced or parenthesised group) with its scripts. */
function atomEnd(tex: string, i: number): number {
  const c = tex[i]
  if (c === undefined) return -1
  let end: number
  if (c === '\\') {
    const m = /^\\[a-zA-Z]+/.exec(tex.slice(i))
    if (!m) return -1
    end = i + m[0].length
    // A command with braced arguments (\frac{a}{b}, \sqrt{x}, \mathrm{d}) is one atom with them.
    while (tex[end] === '{') {
      const g = groupEnd(tex, end)
      if (g < 0) return -1
      end = g
    }
  } else if (c === '{' || c === '(') {
    end = groupEnd(tex, i)
    if (end < 0) return -1
  } else if (/[a-zA-Z]/.test(c)) end = i + 1
  else if (/\d/.test(c)) end = i + (/^\d+(\.\d+)?/.exec(tex.slice(i))?.[0].length ?? 1)
  else return -1
  return scriptsEnd(tex, end)
}

function swapSigns(tex: string): Candidate[] {
  const out: Candidate[] = []
  for (let i = 0; i < tex.length; i++) {
    const c = tex[i]!
    if (c === '\\') {
      // Skip a command name or an escaped character (\-, \{).
      const m = /^\\[a-zA-Z]+/.exec(tex.slice(i))
      i += m ? m[0].length - 1 : 1
      continue
    }
    if (c !== '+' && c !== '-' && c !== '−') continue
    // A binary operator: something that ends an operand stands before it.
    const before = tex.slice(0, i).trimEnd()
    if (!/[a-zA-Z0-9})\]|]$/.test(before)) continue
    out.push({ op: 'swap-sign', start: i, end: i + 1, to: c === '+' ? '-' : '+' })
  }
  return out
}

function changeExponents(tex: string): Candidate[] {
  const out: Candidate[] = []
  const re = /\^(\{(-?\d+)\}|(\d))/g
  for (let m = re.exec(tex); m; m = re.exec(tex)) {
    const n = Number(m[2] ?? m[3])
    // A non-negative exponent grows by one; a negative one loses its sign (x^{-1} becomes x^{1}).
    const changed = n >= 0 ? n + 1 : -n
    out.push({ op: 'change-exponent', start: m.index, end: m.index + m[0].length, to: `^{${changed}}` })
  }
  return out
}

function dropFactors(tex: string): Candidate[] {
  const out: Candidate[] = []
  // \frac{A}{B} -> {A}: the factor 1/B is dropped.
  const frac = /\\frac(?=\{)/g
  for (let m = frac.exec(tex); m; m = frac.exec(tex)) {
    const numEnd = groupEnd(tex, m.index + 5)
    if (numEnd < 0 || tex[numEnd] !== '{') continue
    const denEnd = groupEnd(tex, numEnd)
    if (denEnd < 0) continue
    out.push({ op: 'drop-factor', start: m.index, end: denEnd, to: tex.slice(m.index + 5, numEnd) })
  }
  // X \cdot Y or X \times Y -> X: the factor Y is dropped.
  const times = /\s*\\(cdot|times)(?![a-zA-Z])\s*/g
  for (let m = times.exec(tex); m; m = times.exec(tex)) {
    const end = atomEnd(tex, m.index + m[0].length)
    if (end < 0) continue
    out.push({ op: 'drop-factor', start: m.index, end, to: '' })
  }
  // A numeric coefficient at the start of a term (2\pi r, 3 x_k) is dropped.
  const coefficient = /(^|[=+\-(,{]\s*)(\d+(?:\.\d+)?)\s*(?=[a-zA-Z\\(])/g
  for (let m = coefficient.exec(tex); m; m = coefficient.exec(tex)) {
    const start = m.index + m[1]!.length
    out.push({ op: 'drop-factor', start, end: m.index + m[0].length, to: '' })
  }
  return out
}

/** Spans of words set in maths (\text{cross-entropy}, \mathrm{d}): a hyphen there is not a minus. */
function textSpans(tex: string): Array<[number, number]> {
  const spans: Array<[number, number]> = []
  const re = /\\(?:text|textrm|textit|textbf|mathrm|mathit|mathsf|mathtt|operatorname|mbox)\s*(?=\{)/g
  for (let m = re.exec(tex); m; m = re.exec(tex)) {
    const open = m.index + m[0].length
    const end = groupEnd(tex, open)
    if (end > 0) spans.push([open, end])
  }
  return spans
}

function candidatesOf(tex: string, ops: ReadonlyArray<FormulaEditOp>): Candidate[] {
  const all = [...swapSigns(tex), ...changeExponents(tex), ...dropFactors(tex)]
  const words = textSpans(tex)
  // An edit that leaves the LaTeX unchanged is not an edit; one inside words set in maths changes no formula.
  return all.filter(
    (c) => ops.includes(c.op) && tex.slice(c.start, c.end) !== c.to && !words.some(([from, to]) => c.start >= from && c.start < to)
  )
}

/** A seeded choice in [0, n), independent for each key. */
function choose(seed: string, key: string, n: number): number {
  return Number(sha256Prefix64(`${seedText(seed)}:${key}`) % BigInt(n))
}

export interface FormulaEditOptions {
  seed: string
  /** Keys the choice (e.g. the original's id and side), so every original gets its own draw under one seed. */
  key: string
  /** The typed edits allowed; all by default. */
  ops?: ReadonlyArray<FormulaEditOp>
}

/**
 * Applies one formula edit to the Markdown, or returns null when no equation admits one. The equation is chosen
 * uniformly among those with at least one candidate edit, then the edit type among those it admits, then the place.
 */
export function applyFormulaEdit(markdown: string, options: FormulaEditOptions): FormulaEditResult | null {
  const ops = options.ops ?? FORMULA_EDIT_OPS
  const usable: Array<{ eq: Equation; candidates: Candidate[] }> = []
  for (const eq of findEquations(markdown)) {
    const candidates = candidatesOf(eq.tex, ops)
    if (candidates.length) usable.push({ eq, candidates })
  }
  if (!usable.length) return null
  const { eq, candidates } = usable[choose(options.seed, `${options.key}:equation`, usable.length)]!
  const opsHere = FORMULA_EDIT_OPS.filter((op) => candidates.some((c) => c.op === op))
  const op = opsHere[choose(options.seed, `${options.key}:op`, opsHere.length)]!
  const ofOp = candidates.filter((c) => c.op === op)
  const c = ofOp[choose(options.seed, `${options.key}:place`, ofOp.length)]!
  const after = eq.tex.slice(0, c.start) + c.to + eq.tex.slice(c.end)
  const at = { start: eq.start + c.start, end: eq.start + c.end }
  return {
    markdown: markdown.slice(0, at.start) + c.to + markdown.slice(at.end),
    edit: {
      method: FORMULA_EDIT_METHOD,
      seed: options.seed,
      op,
      equation: { index: eq.index, display: eq.display, before: eq.tex, after },
      from: eq.tex.slice(c.start, c.end),
      to: c.to,
      at
    }
  }
}

/** Reapplies a recorded edit to the original, refusing when the original no longer holds the replaced text there. */
export function reapplyFormulaEdit(markdown: string, edit: FormulaEdit): string {
  if (markdown.slice(edit.at.start, edit.at.end) !== edit.from) {
    throw new Error(`the original no longer holds "${edit.from}" at offset ${edit.at.start}`)
  }
  return markdown.slice(0, edit.at.start) + edit.to + markdown.slice(edit.at.end)
}
