import { Fragment, type ReactNode } from 'react'
import { booleanKeys } from '../../../shared/instruments/screen-keys'
import type { Stop } from './stops'

/** A key cap. Letters and digits are drawn in a face where `l`, `I` and `1` differ (see styles: kbd). */
export function Key({ k }: { k: string }) {
  return <kbd data-key={k}>{k}</kbd>
}

interface LegendProps {
  stop: Stop | undefined
  /** Every stop of the form, for the full list of keys. */
  stops: ReadonlyArray<Stop>
  hasPair: boolean
  hasList: boolean
  expanded: boolean
}

/** The shortcuts, always on screen; the part that applies to the current field comes first. `?` lists every key. */
export function Legend({ stop, stops, hasPair, hasList, expanded }: LegendProps) {
  const here = fieldKeys(stop)
  return (
    <footer className={expanded ? 'legend expanded' : 'legend'} aria-label="Keyboard shortcuts" data-testid="legend">
      {here && <span className="legend-here">{here}</span>}
      <span>
        <Key k="j" />/<Key k="k" /> field · <Key k="Tab" />/<Key k="Enter" /> into a text box · <Key k="Esc" /> out
      </span>
      <span>
        <Key k="Ctrl" />+<Key k="Enter" /> submit
      </span>
      <span>
        <Key k="Alt" />+<Key k="→" />/<Key k="←" /> next/previous item
      </span>
      <span>
        <Key k="s" /> skip · <Key k="f" /> flag
      </span>
      {hasList && (
        <span>
          <Key k="+" /> add · <Key k="Del" /> remove entry
        </span>
      )}
      <span>
        <Key k="?" /> all keys · <Key k="q" /> queues
      </span>
      {expanded && <AllKeys stops={stops} hasPair={hasPair} hasList={hasList} />}
    </footer>
  )
}

/** Every key of the item: moving, answering each field, the item and the text. */
function AllKeys({ stops, hasPair, hasList }: { stops: ReadonlyArray<Stop>; hasPair: boolean; hasList: boolean }) {
  const rows: Array<[ReactNode, string]> = []
  const seen = new Set<string>()
  for (const s of stops) {
    if (s.kind !== 'field') continue
    const w = s.widget
    if (seen.has(w.label)) continue
    seen.add(w.label)
    const keys = answerKeys(s)
    if (keys) rows.push([keys, w.label])
  }
  rows.push(
    [<><Key k="j" /> <Key k="k" /></>, 'next / previous field (never into a text box)'],
    [<><Key k="J" /> <Key k="K" /></>, 'next / previous hypothesis or entry'],
    [<><Key k="Tab" /> <Key k="⇧Tab" /></>, 'next / previous field, into its text box'],
    [<Key k="Enter" />, 'type in the text box of this field'],
    [<Key k="Esc" />, 'leave the text box (keys are shortcuts again)'],
    [<><Key k="Ctrl" />+<Key k="Enter" /></>, 'submit'],
    [<><Key k="Alt" />+<Key k="→" /> <Key k="←" /></>, 'next / previous item (also in a text box)'],
    [<><Key k="Ctrl" />+<Key k="Z" /></>, 'undo the last submission'],
    [<><Key k="s" /> <Key k="f" /></>, 'skip / flag the item, with a reason'],
    [<Key k="h" />, 'history of this item'],
    [<Key k="q" />, 'back to the queues'],
    [<><Key k="↑" /> <Key k="↓" /> <Key k="PgUp" /> <Key k="PgDn" /> <Key k="Space" /></>, 'scroll the text'],
    [<><Key k="←" /> <Key k="→" /></>, 'scroll a wide formula in view sideways'],
    ...(hasPair ? [[<><Key k="[" /> <Key k="]" /></>, 'previous / next section of the pair'] as [ReactNode, string]] : []),
    ...(hasList ? [[<><Key k="+" /> <Key k="Del" /></>, 'add an entry / remove the entry under the cursor'] as [ReactNode, string]] : []),
    [<Key k="?" />, 'this list']
  )
  return (
    <section className="all-keys" aria-label="All keys" data-testid="all-keys">
      <h2>All keys</h2>
      <dl>
        {rows.map(([keys, what], i) => (
          <Fragment key={i}>
            <dt>{keys}</dt>
            <dd>{what}</dd>
          </Fragment>
        ))}
      </dl>
    </section>
  )
}

/** The keys that answer a field, each with what it gives. */
function answerKeys(stop: Extract<Stop, { kind: 'field' }>): ReactNode {
  const w = stop.widget
  switch (w.kind) {
    case 'choice':
      return w.options.map((o, i) => (
        <Fragment key={i}>
          {i > 0 && ' · '}
          <Key k={o.key} /> {o.label}
        </Fragment>
      ))
    case 'scale':
      return (
        <>
          <Key k={String(w.min)} />–<Key k={String(Math.min(w.max, 9))} />
          {w.max === 10 && <>, <Key k="0" /> = 10</>}
        </>
      )
    case 'boolean': {
      const { yes, no } = booleanKeys(w)
      return (
        <>
          <Key k={yes} /> yes · <Key k={no} /> no
        </>
      )
    }
    case 'quote':
      return (
        <>
          <Key k="e" /> add selection · <Key k="/" /> pick · <Key k="Del" /> clear
        </>
      )
    case 'code':
      return (
        <>
          <Key k="r" /> or <Key k="Ctrl" />+<Key k="⇧" />+<Key k="Enter" /> run
        </>
      )
    default:
      return null
  }
}

function fieldKeys(stop: Stop | undefined): ReactNode {
  if (!stop) return null
  if (stop.kind === 'add') return <><Key k="Enter" /> or <Key k="+" /> adds an entry</>
  if (stop.kind === 'rubric-item') return <><Key k="Enter" /> to type the points of this rubric item</>
  const w = stop.widget
  if (w.kind === 'text' || w.kind === 'number') return <><Key k="Enter" /> to type here</>
  return answerKeys(stop) ?? null
}
