import { create } from 'zustand'
import type { ItemKind, Split } from '../../shared/items/kinds'
import type { ProjectView, Session } from '../../shared/contract/schemas'
import { api } from './api'

export type Screen = 'overview' | 'items' | 'instruments' | 'annotate' | 'import' | 'adjudicate' | 'runs' | 'report'

export interface ItemFilters {
  kind?: ItemKind
  set?: string
  split?: Split
  text: string
}

interface WorkbenchState {
  session: Session | null
  info: ProjectView | null
  screen: Screen
  filters: ItemFilters
  selectedItemId: number | null
  error: string | null
  load(): Promise<void>
  setScreen(screen: Screen): void
  setFilters(patch: Partial<ItemFilters>): void
  selectItem(id: number | null): void
  setError(message: string | null): void
}

export const useWorkbench = create<WorkbenchState>((set) => ({
  session: null,
  info: null,
  screen: 'overview',
  filters: { text: '' },
  selectedItemId: null,
  error: null,
  async load() {
    try {
      const [session, info] = await Promise.all([api['session.get']({}), api['project.info']({})])
      set({ session, info, error: null })
    } catch (e) {
      set({ error: (e as Error).message })
    }
  },
  setScreen: (screen) => set({ screen }),
  setFilters: (patch) => set((s) => ({ filters: { ...s.filters, ...patch }, selectedItemId: null })),
  selectItem: (id) => set({ selectedItemId: id, screen: 'items' }),
  setError: (error) => set({ error })
}))
