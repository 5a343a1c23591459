import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import type { ItemSummary } from '../../../shared/contract/schemas'
import { ITEM_KINDS, SPLITS, type ItemKind, type Split } from '../../../shared/items/kinds'
import { api } from '../api'
import { useWorkbench } from '../workbench-state'
import { ItemView } from './ItemView'
import { Choices } from '../components/Choices'
import { SplitForm } from './SplitForm'

const PAGE = 200

/** Filterable, virtualized list of every item (pages fetched as they scroll into view), with the item beside it. */
export function ItemBrowser() {
  const { filters, setFilters, selectedItemId, selectItem, setError, info } = useWorkbench()
  const [splitting, setSplitting] = useState(false)
  // Bumped after a split, so the rows show their new splits.
  const [reloads, setReloads] = useState(0)
  const [sets, setSets] = useState<string[]>([])
  const [total, setTotal] = useState(0)
  const [pages, setPages] = useState<Map<number, ItemSummary[]>>(new Map())
  const pending = useRef(new Set<number>())
  const generation = useRef(0)
  const [text, setText] = useState(filters.text)

  useEffect(() => {
    void api['items.facets']({}).then((f) => setSets(f.sets), (e: Error) => setError(e.message))
  }, [setError])

  // Debounce typing into the search box.
  useEffect(() => {
    const t = setTimeout(() => {
      if (text !== filters.text) setFilters({ text })
    }, 200)
    return () => clearTimeout(t)
  }, [text, filters.text, setFilters])

  const query = useCallback(
    (offset: number) => ({
      offset,
      limit: PAGE,
      ...(filters.kind ? { kind: filters.kind } : {}),
      ...(filters.set ? { set: filters.set } : {}),
      ...(filters.split ? { split: filters.split } : {}),
      ...(filters.text ? { text: filters.text } : {})
    }),
    [filters]
  )

  const loadPage = useCallback(
    (page: number) => {
      if (pending.current.has(page)) return
      pending.current.add(page)
      const gen = generation.current
      api['items.list'](query(page * PAGE)).then(
        (res) => {
          if (gen !== generation.current) return
          setTotal(res.total)
          setPages((prev) => new Map(prev).set(page, res.rows))
        },
        (e: Error) => setError(e.message)
      )
    },
    [query, setError]
  )

  useEffect(() => {
    generation.current++
    pending.current = new Set()
    setPages(new Map())
    setTotal(0)
    loadPage(0)
  }, [loadPage, reloads])

  const parentRef = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({ count: total, getScrollElement: () => parentRef.current, estimateSize: () => 52, overscan: 12 })
  const virtualRows = virtualizer.getVirtualItems()

  useEffect(() => {
    for (const v of virtualRows) {
      const page = Math.floor(v.index / PAGE)
      if (!pages.has(page)) loadPage(page)
    }
  }, [virtualRows, pages, loadPage])

  const rowAt = (index: number) => pages.get(Math.floor(index / PAGE))?.[index % PAGE]
  const [cursor, setCursor] = useState(0)

  /** The list by keyboard: arrows, Page Up/Down, Home and End move the selection; the row is scrolled into view. */
  const onListKey = (e: KeyboardEvent) => {
    const step: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10, Home: -Infinity, End: Infinity }
    const by = step[e.key]
    if (by === undefined || total === 0) return
    e.preventDefault()
    const next = Math.max(0, Math.min(total - 1, Number.isFinite(by) ? cursor + by : by > 0 ? total - 1 : 0))
    setCursor(next)
    virtualizer.scrollToIndex(next, { align: 'auto' })
    const row = rowAt(next)
    if (row) selectItem(row.id)
  }

  return (
    <div className="browser">
      <aside className="browser-list">
        <div className="filters" role="search">
          <input aria-label="Search items" placeholder="Search text…" value={text} onChange={(e) => setText(e.target.value)} />
          <select aria-label="Kind" value={filters.kind ?? ''} onChange={(e) => setFilters({ kind: (e.target.value || undefined) as ItemKind | undefined })}>
            <Choices values={Object.keys(ITEM_KINDS)} empty="All kinds" />
          </select>
          <select aria-label="Set" value={filters.set ?? ''} onChange={(e) => setFilters({ set: e.target.value || undefined })}>
            <Choices values={sets} empty="All sets" />
          </select>
          <select aria-label="Split" value={filters.split ?? ''} onChange={(e) => setFilters({ split: (e.target.value || undefined) as Split | undefined })}>
            <Choices values={SPLITS} empty="All splits" />
          </select>
        </div>
        <button type="button" className="split-open" onClick={() => setSplitting(true)}>
          Make a dev/test split…
        </button>
        {splitting && <SplitForm sets={sets} projectSeed={info?.seed} onSplit={() => setReloads((n) => n + 1)} onClose={() => setSplitting(false)} />}
        <div className="result-count" data-testid="result-count">
          {total} item{total === 1 ? '' : 's'}
        </div>
        <div
          ref={parentRef}
          className="virtual-scroll"
          role="listbox"
          aria-label="Items"
          tabIndex={0}
          onKeyDown={onListKey}
          aria-activedescendant={selectedItemId ? `item-option-${selectedItemId}` : undefined}
        >
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualRows.map((v) => {
              const row = rowAt(v.index)
              return (
                <div
                  key={v.key}
                  role="option"
                  id={row ? `item-option-${row.id}` : undefined}
                  aria-selected={row?.id === selectedItemId}
                  className={row?.id === selectedItemId ? 'item-row selected' : 'item-row'}
                  style={{ position: 'absolute', top: 0, left: 0, right: 0, height: v.size, transform: `translateY(${v.start}px)` }}
                  onClick={() => {
                    if (!row) return
                    setCursor(v.index)
                    selectItem(row.id)
                  }}
                  data-external-id={row?.external_id}
                >
                  {row ? (
                    <>
                      <div className="item-title">{row.title}</div>
                      <div className="item-meta">
                        {row.kind} · {row.set_name} · {row.split}
                      </div>
                    </>
                  ) : (
                    <div className="item-meta">…</div>
                  )}
                </div>
              )
            })}
          </div>
        </div>
      </aside>
      <section className="browser-detail" tabIndex={0} aria-label="Item">{selectedItemId ? <ItemView id={selectedItemId} /> : <><h1 className="visually-hidden">Items</h1><p className="muted">Select an item.</p></>}</section>
    </div>
  )
}
